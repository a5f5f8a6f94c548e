/**
 * The disruption budget of one workload (pods grouped by owner), for disruptive actions only
 * (evictions and resizes that restart a container); non-disruptive in-place resizes need none, so
 * single-replica workloads are resized in place (the upstream updater never updates them).
 * - `minReplicas` (the VPA's, else the option, default 2): fewer live pods than this, no disruption;
 * - eviction tolerance (default 0.5): at most max(1, floor(replicas x tolerance)) pods disrupted at
 *   once, minus the pods already unavailable. Example: 4 replicas, 3 ready -> 2 - 1 = 1 more.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { UpdaterOptions } from '../policy/update-thresholds.ts';

/** What a workload may still take this loop. */
export interface WorkloadBudget {
  live: number;
  ready: number;
  replicas: number;
  minReplicas: number;
  /** Disruptive actions still allowed (0 or more). */
  disruptions: number;
}

/** True if the pod is running, not terminating, and Ready. */
export function podReady(pod: V1Pod): boolean {
  if (pod.status?.phase !== 'Running' || pod.metadata?.deletionTimestamp) return false;
  const ready = pod.status.conditions?.find((c) => c.type === 'Ready');
  if (ready) return ready.status === 'True';
  const statuses = pod.status.containerStatuses ?? [];
  return statuses.length > 0 && statuses.every((s) => s.ready);
}

/** The budget of a workload from its pods; `replicas` is the desired count (default: the pods seen). */
export function workloadBudget(
  pods: readonly V1Pod[],
  vpa: VerticalPodAutoscaler,
  options: Pick<UpdaterOptions, 'minReplicas' | 'evictionTolerance'>,
  replicas?: number,
): WorkloadBudget {
  const live = pods.filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp).length;
  const ready = pods.filter(podReady).length;
  const desired = replicas ?? pods.length;
  const minReplicas = vpa.spec.updatePolicy?.minReplicas ?? options.minReplicas;
  const tolerance = Math.max(1, Math.floor(desired * options.evictionTolerance));
  const unavailable = Math.max(0, desired - ready);
  const disruptions = live < minReplicas ? 0 : Math.max(0, tolerance - unavailable);
  return { live, ready, replicas: desired, minReplicas, disruptions };
}
