/**
 * StatefulSet: pods named `<name>-<ordinal>` for ordinals 0..replicas-1, each with the
 * `statefulset.kubernetes.io/pod-name` and `apps.kubernetes.io/pod-index` labels. A missing ordinal
 * is recreated with the same name; ordinals at or above `replicas` are deleted.
 */
import type { Pod } from '../objects.ts';
import { podFromTemplate } from './pod-from-template.ts';
import { isActive, isReady, type ReconcileResult, type Workload } from './workload-types.ts';

export function reconcileStatefulSet(sts: Workload, owned: readonly Pod[]): ReconcileResult {
  const want = sts.spec.replicas ?? 1;
  const base = sts.metadata.name ?? '';
  const byName = new Map(owned.map((p) => [p.metadata.name ?? '', p]));
  const create: Pod[] = [];
  for (let i = 0; i < want; i++) {
    const name = `${base}-${i}`;
    if (byName.has(name)) continue; // a terminating pod must be gone before its name is reused
    const pod = podFromTemplate(
      { ...sts, kind: 'StatefulSet', apiVersion: 'apps/v1' },
      {
        name,
        extraLabels: { 'statefulset.kubernetes.io/pod-name': name, 'apps.kubernetes.io/pod-index': String(i) },
      },
    );
    pod.spec.hostname = name;
    if (sts.spec.serviceName) pod.spec.subdomain = sts.spec.serviceName;
    create.push(pod);
  }
  const remove = owned
    .filter((p) => isActive(p))
    .filter((p) => {
      const m = /-(\d+)$/.exec(p.metadata.name ?? '');
      return !m || Number(m[1]) >= want;
    })
    .map((p) => p.metadata.name ?? '');
  const active = owned.filter(isActive);
  const ready = active.filter(isReady).length;
  return {
    create,
    delete: remove,
    status: {
      observedGeneration: sts.metadata.generation ?? 1,
      replicas: active.length,
      readyReplicas: ready,
      currentReplicas: active.length,
      updatedReplicas: active.length,
      availableReplicas: ready,
    },
  };
}
