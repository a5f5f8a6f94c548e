/**
 * Whether a resized pod fits on its node, in the kubelet's terms:
 * - Infeasible: the pod's new requests exceed the node's allocatable on their own ("can never fit"),
 *   memory checked first: "Node didn't have enough capacity: cpu, requested: 2500, capacity: 1930".
 * - Deferred: they fit the node but not beside what other pods have allocated ("could fit later"):
 *   "Node didn't have enough resource: cpu, requested: 1500, used: 1450, capacity: 1930".
 * CPU in millicores, memory in bytes. Worked example: allocatable cpu 1930m, others hold 1450m,
 * the pod asks 1500m: 1500 <= 1930 (feasible) but 1450 + 1500 = 2950 > 1930 (deferred).
 */
import type { Resources } from 'kube-basics/resources';

export type ResizeFit = { fits: true } | { fits: false; reason: 'Infeasible' | 'Deferred'; message: string };

export function admitResize(podRequests: Resources, allocatable: Resources, othersAllocated: Resources): ResizeFit {
  if (podRequests.cpu > allocatable.cpu || podRequests.memory > allocatable.memory) {
    const detail =
      podRequests.memory > allocatable.memory
        ? `memory, requested: ${podRequests.memory}, capacity: ${allocatable.memory}`
        : `cpu, requested: ${podRequests.cpu}, capacity: ${allocatable.cpu}`;
    return { fits: false, reason: 'Infeasible', message: `Node didn't have enough capacity: ${detail}` };
  }
  for (const resource of ['cpu', 'memory'] as const) {
    if (othersAllocated[resource] + podRequests[resource] > allocatable[resource]) {
      return {
        fits: false,
        reason: 'Deferred',
        message: `Node didn't have enough resource: ${resource}, requested: ${podRequests[resource]}, used: ${othersAllocated[resource]}, capacity: ${allocatable[resource]}`,
      };
    }
  }
  return { fits: true };
}
