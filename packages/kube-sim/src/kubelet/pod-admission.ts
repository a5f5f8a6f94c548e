/**
 * The kubelet's admission of a pod bound straight to its node (nodeName set by its creator, not by
 * the scheduler): a pod that does not fit beside the pods already running there is rejected with
 * phase Failed, reason `OutOfcpu` / `OutOfmemory`. Worked example: allocatable 2000m, 1500m in use,
 * the pod asks 1000m: 1500 + 1000 > 2000, so `Pod was rejected: Node didn't have enough resource:
 * cpu, requested: 1000, used: 1500, capacity: 2000`.
 */
import type { Resources } from 'kube-basics/resources';

export function admitAtStart(want: Resources, allocatable: Resources, used: Resources): { reason: string; message: string } | undefined {
  for (const resource of ['cpu', 'memory'] as const) {
    if (used[resource] + want[resource] > allocatable[resource]) {
      return {
        reason: `OutOf${resource}`,
        message: `Pod was rejected: Node didn't have enough resource: ${resource}, requested: ${want[resource]}, used: ${used[resource]}, capacity: ${allocatable[resource]}`,
      };
    }
  }
  return undefined;
}
