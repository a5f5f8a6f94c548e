/**
 * Run-to-completion pods (restartPolicy Never or OnFailure, i.e. Job pods) finish after the time in
 * their annotation `tailor.dev/sim-run-for` (`30s`, `5m`, `1h`; default 30s): phase Succeeded, their
 * containers terminated with reason Completed and exit code 0, Ready conditions False.
 */
import type { Pod, PodStatus } from '../objects.ts';
import { rfc3339 } from './conditions.ts';

export const RUN_FOR_ANNOTATION = 'tailor.dev/sim-run-for';

/** Milliseconds a run-to-completion pod runs (default 30 s). */
export function runForMs(pod: Pod): number {
  const m = /^(\d+)(s|m|h)$/.exec(pod.metadata.annotations?.[RUN_FOR_ANNOTATION] ?? '');
  if (!m) return 30_000;
  return Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 's' | 'm' | 'h'];
}

/** The status after this step: unchanged until the pod has run its time, then Succeeded. */
export function finishIfDone(pod: Pod, status: PodStatus, startedAt: number, now: number): PodStatus {
  if ((pod.spec.restartPolicy ?? 'Always') === 'Always') return status;
  if (now - startedAt < runForMs(pod)) return status;
  return {
    ...status,
    phase: 'Succeeded',
    conditions: (status.conditions ?? []).map((c) =>
      c.type === 'Ready' || c.type === 'ContainersReady' ? { ...c, status: 'False', reason: 'PodCompleted', lastTransitionTime: rfc3339(now) } : c,
    ),
    containerStatuses: (status.containerStatuses ?? []).map((s) => ({
      ...s,
      ready: false,
      started: false,
      state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: s.state?.running?.startedAt, finishedAt: rfc3339(now), containerID: s.containerID } },
    })),
  };
}
