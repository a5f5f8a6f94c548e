/**
 * Groups pods into the workloads their VPAs target, with what `plan` needs per workload: the
 * namespace's LimitRanges, the resources an HPA on the same workload scales on, and the desired
 * replicas (`spec.replicas` of the workload object, when known). Pure: objects in, groups out; the
 * controller passes its caches, `tailor plan` the objects read from files.
 */
import type { V1LimitRange, V1Pod, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { controllingVpas, workloadKey, type WorkloadRef } from '../api/controlling-vpa.ts';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import { hpaUtilizationResources } from './hpa.ts';
import type { WorkloadGroup } from './updater-plan.ts';
import { podWorkload } from './pod-owner.ts';

/** A workload object as far as grouping needs it (Deployment, StatefulSet, Job, ...). */
export interface WorkloadObject {
  kind?: string;
  metadata?: { name?: string; namespace?: string; ownerReferences?: readonly { kind: string; name: string; controller?: boolean }[] };
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
/** A target's index key (NUL cannot occur in a kind, namespace or name). */
const targetKey = (kind: string, namespace: string, name: string) => `${kind}\u0000${namespace}\u0000${name}`;

/** `items` by `key` (undefined: left out), each list in the order given. */
function indexBy<T>(items: readonly T[], key: (item: T) => string | undefined): Map<string, T[]> {
  const index = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    const list = index.get(k);
    if (list) list.push(item);
    else index.set(k, [item]);
  }
  return index;
}

/**
 * The CronJob that controls `ref` when `ref` is a Job whose object says so (its controller
 * ownerReference); else `ref`. The pod alone cannot tell: `hamster-cronjob-29412345` is a Job name.
 */
function cronJobOfJob(ref: WorkloadRef | undefined, workloads: ReadonlyMap<string, WorkloadObject[]>): WorkloadRef | undefined {
  if (ref?.kind !== 'Job') return ref;
  const job = workloads.get(targetKey('Job', ns(ref.namespace), ref.name))?.[0];
  const owner = job?.metadata?.ownerReferences?.find((o) => o.controller === true);
  return owner?.kind === 'CronJob' ? { kind: 'CronJob', namespace: ref.namespace, name: owner.name } : ref;
}

/**
 * One group per targeted workload, with its controlling VPA (`controllingVpas`: the oldest of the
 * VPAs on it, whatever their order here; decision 0277), in the order the workloads' first VPAs
 * come; a pod belongs to the group of its top-most owner (a CronJob's pod: the CronJob, read from
 * its Job among `workloads`). The LimitRanges, HPAs and workload
 * objects are indexed once, so grouping costs one pass over each list, not one per VPA (10,000
 * VPAs: a scan per VPA was 10^8 comparisons a loop).
 */
export function groupWorkloads(objects: ClusterObjects): Grouping {
  const limitRangesByNamespace = indexBy(objects.limitRanges ?? [], (lr) => ns(lr.metadata?.namespace));
  const hpasByTarget = indexBy(objects.hpas ?? [], (h) =>
    h.spec ? targetKey(h.spec.scaleTargetRef.kind, ns(h.metadata?.namespace), h.spec.scaleTargetRef.name) : undefined,
  );
  const workloadsByTarget = indexBy(objects.workloads ?? [], (w) =>
    w.kind !== undefined && w.metadata?.name !== undefined ? targetKey(w.kind, ns(w.metadata.namespace), w.metadata.name) : undefined,
  );
  const byKey = new Map<string, { group: WorkloadGroup; pods: V1Pod[] }>();
  const groups: { group: WorkloadGroup; pods: V1Pod[] }[] = [];
  for (const [key, vpa] of controllingVpas(objects.vpas)) {
    const namespace = ns(vpa.metadata.namespace);
    const target = targetKey(vpa.spec.targetRef.kind, namespace, vpa.spec.targetRef.name);
    const limitRanges = limitRangesByNamespace.get(namespace) ?? [];
    const hpas = hpasByTarget.get(target) ?? [];
    const hpaResources = hpas.flatMap(hpaUtilizationResources);
    const workload = workloadsByTarget.get(target)?.[0];
    const group: WorkloadGroup = { workload: key, vpa, pods: [] };
    if (limitRanges.length > 0) group.limitRanges = limitRanges;
    if (hpaResources.length > 0) {
      group.hpaResources = [...new Set(hpaResources)];
      group.hpaNames = hpas
        .filter((h) => hpaUtilizationResources(h).length > 0)
        .map((h) => h.metadata?.name ?? '')
        .sort();
    }
    if (workload?.spec?.replicas !== undefined) group.replicas = workload.spec.replicas;
    const entry = { group, pods: [] };
    byKey.set(key, entry);
    groups.push(entry);
  }
  const unmatched: V1Pod[] = [];
  for (const pod of objects.pods) {
    const ref = cronJobOfJob(podWorkload(pod), workloadsByTarget);
    const group = ref ? byKey.get(workloadKey({ ...ref, namespace: ns(ref.namespace) })) : undefined;
    if (group) group.pods.push(pod);
    else unmatched.push(pod);
  }
  return { groups: groups.map(({ group, pods }) => ({ ...group, pods })), unmatched };
}
