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
}

function oomOf(status: V1ContainerStatus): OomKill | undefined {
  for (const terminated of [status.state?.terminated, status.lastState?.terminated]) {
    if (terminated?.reason === 'OOMKilled') return { containerName: status.name, at: timeOf(terminated.finishedAt as Date | string | undefined) };
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
