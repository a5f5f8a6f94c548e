/**
 * The top-most controller of a pod, which a VPA's `spec.targetRef` names: pod -> ReplicaSet ->
 * Deployment, pod -> Job -> CronJob, or the pod's own controller (StatefulSet, DaemonSet,
 * ReplicationController, any custom kind). Only ReplicaSets and Jobs are followed upwards, from an
 * in-memory lookup kept by watches (no API call per request). When a ReplicaSet is not (yet) in the
 * lookup, which happens when a pod is created right after its ReplicaSet and the watch lags, the
 * Deployment is derived from the naming convention: a Deployment names its ReplicaSets
 * `<deployment>-<pod-template-hash>` and labels their pods `pod-template-hash`, so a pod labelled
 * `pod-template-hash: 5d8f7` owned by ReplicaSet `web-5d8f7` belongs to Deployment `web`.
 * A Job missing from the lookup is taken as top-most (a CronJob's Job is then not matched).
 */
import type { V1OwnerReference, V1Pod } from '@kubernetes/client-node';

/** A reference to a controller object. */
export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
}

/** The kinds whose owners are looked up. */
export type FollowedKind = 'ReplicaSet' | 'Job';

/**
 * The controller of a ReplicaSet or Job: its ref, `null` when the object is known and has no
 * controller, `undefined` when the object is not known (not in the watch cache).
 */
export type ControllerLookup = (kind: FollowedKind, namespace: string, name: string) => OwnerRef | null | undefined;

/** The top-most owner and how it was found. */
export interface TopMostOwner {
  owner: OwnerRef;
  /** `derived` when the ReplicaSet was not in the cache and the Deployment came from names. */
  via: 'cache' | 'derived';
}

const POD_TEMPLATE_HASH = 'pod-template-hash';
/** A guard against owner cycles (which the API server does not forbid). */
const MAX_DEPTH = 10;

/** The controller ownerReference of an object, if any. */
export function controllerRef(refs: readonly V1OwnerReference[] | undefined): OwnerRef | undefined {
  const ref = refs?.find((r) => r.controller === true);
  return ref ? { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name } : undefined;
}

/** The API group of an apiVersion: `apps/v1` -> `apps`, `v1` -> `` (core). */
export function groupOf(apiVersion: string | undefined): string {
  if (!apiVersion) return '';
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

function followed(ref: OwnerRef): FollowedKind | undefined {
  const group = groupOf(ref.apiVersion);
  if (ref.kind === 'ReplicaSet' && group === 'apps') return 'ReplicaSet';
  if (ref.kind === 'Job' && group === 'batch') return 'Job';
  return undefined;
}

/** The Deployment a ReplicaSet of this pod belongs to by naming convention, or undefined. */
export function deploymentByConvention(pod: V1Pod, replicaSet: OwnerRef): OwnerRef | undefined {
  const hash = pod.metadata?.labels?.[POD_TEMPLATE_HASH];
  const suffix = `-${hash}`;
  if (!hash || !replicaSet.name.endsWith(suffix) || replicaSet.name.length === suffix.length) return undefined;
  return { apiVersion: 'apps/v1', kind: 'Deployment', name: replicaSet.name.slice(0, -suffix.length) };
}

/** The pod's top-most controller, or undefined for a pod without a controller. Pure. */
export function topMostOwner(pod: V1Pod, namespace: string, lookup: ControllerLookup): TopMostOwner | undefined {
  let ref = controllerRef(pod.metadata?.ownerReferences);
  if (!ref) return undefined;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const kind = followed(ref);
    if (!kind) return { owner: ref, via: 'cache' };
    const parent = lookup(kind, namespace, ref.name);
    if (parent === null) return { owner: ref, via: 'cache' };
    if (parent === undefined) {
      const derived = depth === 0 && kind === 'ReplicaSet' ? deploymentByConvention(pod, ref) : undefined;
      return derived ? { owner: derived, via: 'derived' } : { owner: ref, via: 'cache' };
    }
    ref = parent;
  }
  return { owner: ref, via: 'cache' };
}
