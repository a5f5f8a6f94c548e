/** DaemonSet: one active pod on every schedulable node, bound to it directly; pods on nodes that left are deleted. */
import type { NodeObject, Pod } from '../objects.ts';
import { podFromTemplate } from './pod-from-template.ts';
import { isActive, isReady, type ReconcileResult, type Workload } from './workload-types.ts';

export function reconcileDaemonSet(ds: Workload, owned: readonly Pod[], nodes: readonly NodeObject[]): ReconcileResult {
  const eligible = nodes.filter((n) => !n.spec?.unschedulable).map((n) => n.metadata.name ?? '');
  const active = owned.filter(isActive);
  const create: Pod[] = [];
  for (const node of eligible) {
    if (owned.some((p) => p.spec.nodeName === node && !p.metadata.deletionTimestamp && isActive(p))) continue;
    create.push(podFromTemplate({ ...ds, kind: 'DaemonSet', apiVersion: 'apps/v1' }, { generateName: `${ds.metadata.name}-`, nodeName: node }));
  }
  const remove = active.filter((p) => !eligible.includes(p.spec.nodeName ?? '')).map((p) => p.metadata.name ?? '');
  const ready = active.filter(isReady).length;
  return {
    create,
    delete: remove,
    status: {
      observedGeneration: ds.metadata.generation ?? 1,
      desiredNumberScheduled: eligible.length,
      currentNumberScheduled: active.length,
      numberReady: ready,
      numberAvailable: ready,
      updatedNumberScheduled: active.length,
      numberMisscheduled: 0,
    },
  };
}
