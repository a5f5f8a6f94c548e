/**
 * Groups pods into the workloads their VPAs target, with what `plan` needs per workload: the
 * namespace's LimitRanges, the resources an HPA on the same workload scales on, and the desired
 * replicas (`spec.replicas` of the workload object, when known). Pure: objects in, groups out; the
 * controller passes its caches, `tailor plan` the objects read from files.
 */
import type { V1LimitRange, V1Pod, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import { hpaUtilizationResources } from './hpa.ts';
import type { WorkloadGroup } from './plan.ts';
import { podWorkload, workloadKey } from './pod-owner.ts';

/** A workload object as far as grouping needs it (Deployment, StatefulSet, ...). */
export interface WorkloadObject {
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  spec?: { replicas?: number };
}

/** The objects to group. */
export interface ClusterObjects {
  pods: readonly V1Pod[];
  vpas: readonly VerticalPodAutoscaler[];
  limitRanges?: readonly V1LimitRange[];
  hpas?: readonly V2HorizontalPodAutoscaler[];
  workloads?: readonly WorkloadObject[];
}

/** The groups, and the pods no VPA targets. */
export interface Grouping {
  groups: WorkloadGroup[];
  unmatched: V1Pod[];
}

const ns = (namespace: string | undefined) => namespace || 'default';

/** One group per VPA (in the order given); a pod belongs to the VPA whose targetRef is its top-most owner. */
export function groupWorkloads(objects: ClusterObjects): Grouping {
  const byKey = new Map<string, { group: WorkloadGroup; pods: V1Pod[] }>();
  const groups: { group: WorkloadGroup; pods: V1Pod[] }[] = [];
  for (const vpa of objects.vpas) {
    const namespace = ns(vpa.metadata.namespace);
    const key = workloadKey({ kind: vpa.spec.targetRef.kind, namespace, name: vpa.spec.targetRef.name });
    if (byKey.has(key)) continue; // two VPAs for one workload: the first wins (upstream refuses both)
    const limitRanges = (objects.limitRanges ?? []).filter((lr) => ns(lr.metadata?.namespace) === namespace);
    const hpas = (objects.hpas ?? []).filter((h) => ns(h.metadata?.namespace) === namespace && h.spec?.scaleTargetRef.kind === vpa.spec.targetRef.kind && h.spec.scaleTargetRef.name === vpa.spec.targetRef.name);
    const hpaResources = hpas.flatMap(hpaUtilizationResources);
    const workload = (objects.workloads ?? []).find((w) => w.kind === vpa.spec.targetRef.kind && w.metadata?.name === vpa.spec.targetRef.name && ns(w.metadata?.namespace) === namespace);
    const group: WorkloadGroup = { workload: key, vpa, pods: [] };
    if (limitRanges.length > 0) group.limitRanges = limitRanges;
    if (hpaResources.length > 0) {
      group.hpaResources = [...new Set(hpaResources)];
      group.hpaNames = hpas.filter((h) => hpaUtilizationResources(h).length > 0).map((h) => h.metadata?.name ?? '').sort();
    }
    if (workload?.spec?.replicas !== undefined) group.replicas = workload.spec.replicas;
    const entry = { group, pods: [] };
    byKey.set(key, entry);
    groups.push(entry);
  }
  const unmatched: V1Pod[] = [];
  for (const pod of objects.pods) {
    const ref = podWorkload(pod);
    const group = ref ? byKey.get(workloadKey({ ...ref, namespace: ns(ref.namespace) })) : undefined;
    if (group) group.pods.push(pod);
    else unmatched.push(pod);
  }
  return { groups: groups.map(({ group, pods }) => ({ ...group, pods })), unmatched };
}
