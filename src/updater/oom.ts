/**
 * OOM kills, read from the pod: a container whose `lastState.terminated` (or current
 * `state.terminated`) has reason `OOMKilled`, with the time it finished.
 */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { timeOf } from './object-time.ts';

/** One OOM kill of a container. `at` is `finishedAt` (ms), undefined if the status has no time. */
export interface OomKill {
  containerName: string;
  at: number | undefined;
  /** How long the container ran before the kill (`finishedAt - startedAt`), when both are known. */
  ranMs?: number;
}

function oomOf(status: V1ContainerStatus): OomKill | undefined {
  for (const terminated of [status.state?.terminated, status.lastState?.terminated]) {
    if (terminated?.reason !== 'OOMKilled') continue;
    const at = timeOf(terminated.finishedAt as Date | string | undefined);
    const started = timeOf(terminated.startedAt as Date | string | undefined);
    return at !== undefined && started !== undefined ? { containerName: status.name, at, ranMs: at - started } : { containerName: status.name, at };
  }
  return undefined;
}

/** The most recent OOM kill of each container that has one (regular and init containers). */
export function oomKills(pod: V1Pod): OomKill[] {
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  return statuses.map(oomOf).filter((k): k is OomKill => k !== undefined);
}

/**
 * The OOM kills that call for action at `now`: finished within `lookbackMs` and after the
 * updater's last change of the pod (an OOM before that change was already answered).
 * A kill without a time counts only if the pod was never changed by the updater.
 */
export function recentOomKills(pod: V1Pod, now: number, lookbackMs: number, lastUpdate: number | undefined): OomKill[] {
  return oomKills(pod).filter((k) => {
    if (k.at === undefined) return lastUpdate === undefined;
    return now - k.at <= lookbackMs && (lastUpdate === undefined || k.at > lastUpdate);
  });
}

/**
 * The OOM kills that call for action under a VPA's `evictAfterOOMSeconds` (upstream 1.8's quick
 * OOM): a kill of a container that ran less than that long since its start, less than that long
 * ago (and after the updater's last change). With 600 s: a container killed 5 s after its start,
 * 2 min ago, counts; one killed after running 15 min does not (its memory grew slowly: the
 * recommendation follows it, no urgent raise); with 1 s, almost none counts. A kill without a start
 * time does not count.
 */
export function quickOomKills(pod: V1Pod, now: number, evictAfterOomSeconds: number, lastUpdate: number | undefined): OomKill[] {
  const thresholdMs = evictAfterOomSeconds * 1000;
  return recentOomKills(pod, now, thresholdMs, lastUpdate).filter(
    (k) => k.at !== undefined && now - k.at < thresholdMs && k.ranMs !== undefined && k.ranMs < thresholdMs,
  );
}
