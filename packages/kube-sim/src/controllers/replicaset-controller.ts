/**
 * ReplicaSet: keeps `spec.replicas` active pods from the template. Missing pods are created (an
 * evicted or deleted pod comes back this way); surplus pods are deleted, not-ready and newest first.
 */
import type { Pod } from '../objects.ts';
import { podFromTemplate } from './pod-from-template.ts';
import { isActive, isReady, type ReconcileResult, type Workload } from './workload-types.ts';

export function reconcileReplicaSet(rs: Workload, owned: readonly Pod[]): ReconcileResult {
  const want = rs.spec.replicas ?? 1;
  const active = owned.filter(isActive);
  const create: Pod[] = [];
  const remove: string[] = [];
  for (let i = active.length; i < want; i++) {
    create.push(podFromTemplate({ ...rs, kind: 'ReplicaSet', apiVersion: 'apps/v1' }, { generateName: `${rs.metadata.name}-` }));
  }
  if (active.length > want) {
    const order = [...active].sort(
      (a, b) => Number(isReady(a)) - Number(isReady(b)) || (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''),
    );
    for (const p of order.slice(0, active.length - want)) remove.push(p.metadata.name ?? '');
  }
  const ready = active.filter(isReady).length;
  return {
    create,
    delete: remove,
    status: {
      replicas: active.length,
      fullyLabeledReplicas: active.length,
      readyReplicas: ready,
      availableReplicas: ready,
      observedGeneration: rs.metadata.generation ?? 1,
    },
  };
}
