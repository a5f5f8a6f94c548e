/**
 * The top-most controller of a pod, from the pod alone, for grouping pods into workloads (budgets,
 * canary) and matching them to a VPA's `targetRef` (`controllingVpas`, src/api/controlling-vpa.ts):
 * - owned by a ReplicaSet that carries the pod's `pod-template-hash` (`web-5d9c7b` with hash
 *   `5d9c7b`): the Deployment `web`, since a Deployment names its ReplicaSets `<name>-<hash>`;
 * - owned by a ReplicaSet without that: the ReplicaSet itself;
 * - owned by a StatefulSet, DaemonSet, Job, ReplicationController or anything else: that owner;
 * - no controller owner: undefined (a bare pod has no workload; an ownerReference without
 *   `controller: true` does not count, as upstream's `FindParentControllerForPod`).
 * A Job created by a CronJob is reported as the Job: its name does not tell the CronJob apart
 * (`groupWorkloads` reads the Job's own owner for that).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { WorkloadRef } from '../api/controlling-vpa.ts';

/** The pod's top-most controller as far as the pod says, or undefined. */
export function podWorkload(pod: V1Pod): WorkloadRef | undefined {
  const owner = pod.metadata?.ownerReferences?.find((o) => o.controller === true);
  if (!owner) return undefined;
  const namespace = pod.metadata?.namespace ?? '';
  const hash = pod.metadata?.labels?.['pod-template-hash'];
  if (owner.kind === 'ReplicaSet' && hash && owner.name.endsWith(`-${hash}`)) {
    return { kind: 'Deployment', namespace, name: owner.name.slice(0, -(hash.length + 1)) };
  }
  return { kind: owner.kind, namespace, name: owner.name };
}
