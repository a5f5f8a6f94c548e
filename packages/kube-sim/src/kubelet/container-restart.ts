/**
 * A container being killed and started again (OOM kill, a resize with RestartContainer): the old
 * run moves to `lastState.terminated`, `restartCount` + 1, a new run starts with the given resources.
 */
import type { ContainerStatus, ResourceRequirements } from '../objects.ts';
import { rfc3339 } from './conditions.ts';

export interface Termination {
  reason: 'OOMKilled' | 'Completed' | 'Error';
  exitCode: number;
}

/** OOM kills exit with 137 (SIGKILL); a restart asked for by the kubelet ends the old run cleanly. */
export const OOM_KILLED: Termination = { reason: 'OOMKilled', exitCode: 137 };
export const RESTARTED_FOR_RESIZE: Termination = { reason: 'Completed', exitCode: 0 };

/** Returns the restarted container status; `applied` are the resources the new run gets (if reported). */
export function restartContainer(status: ContainerStatus, termination: Termination, now: number, applied?: ResourceRequirements): ContainerStatus {
  const restartCount = status.restartCount + 1;
  const startedAt = status.state?.running?.startedAt;
  const next: ContainerStatus = {
    ...status,
    restartCount,
    containerID: (status.containerID ?? 'sim://c').replace(/-\d+$/, '') + `-${restartCount}`,
    lastState: {
      terminated: {
        exitCode: termination.exitCode,
        reason: termination.reason,
        ...(startedAt ? { startedAt } : {}),
        finishedAt: rfc3339(now),
        ...(status.containerID ? { containerID: status.containerID } : {}),
      },
    },
    state: { running: { startedAt: rfc3339(now) } },
  };
  if (applied && status.resources !== undefined) next.resources = applied;
  return next;
}
