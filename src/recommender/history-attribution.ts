/**
 * Which VPA the history of a pod that no longer exists belongs to, from the owner links
 * kube-state-metrics left in Prometheus (kube_pod_owner, kube_replicaset_owner, kube_job_owner).
 * Current pods are routed by the target's selector; a pod already gone at bootstrap has no labels
 * to match any more, but its owner chain still names the workload: a pod of the Deployment's
 * earlier ReplicaSet `web-5d4` resolves `Pod -> ReplicaSet/web-5d4 -> Deployment/web`, so it
 * belongs to the VPA whose targetRef is `Deployment/web` (or `ReplicaSet/web-5d4`: any link of the
 * chain counts). Pods that exist now are left to the selector.
 *
 * Worked example: owner links `old-1 -> RS web-5d4 -> Deployment web` and `cur-1 -> RS web-7c9 ->
 * Deployment web`, current pods {cur-1}, VPA `shop/web` on Deployment/web -> one route
 * `shop/old-1 -> shop/web`.
 */
import type { OwnerIndex } from '../metrics/owner-resolution.ts';

/** A handled VPA's target. */
export interface VpaTarget {
  vpaId: string;
  namespace: string;
  kind: string;
  name: string;
}

/** A gone pod and the VPA its history counts for. */
export interface HistoryRoute {
  namespace: string;
  pod: string;
  vpaId: string;
}

/** Routes for the pods in `owners` that are not in `currentPods` (ids `namespace/pod`). */
export function attributeGonePods(owners: OwnerIndex, currentPods: ReadonlySet<string>, targets: readonly VpaTarget[]): HistoryRoute[] {
  const byWorkload = new Map<string, string>();
  for (const t of targets) byWorkload.set(`${t.namespace}/${t.kind}/${t.name}`, t.vpaId);
  const routes: HistoryRoute[] = [];
  for (const { namespace, pod } of owners.pods()) {
    if (currentPods.has(`${namespace}/${pod}`)) continue;
    for (const link of owners.chainOf(namespace, pod).slice(1)) {
      const vpaId = byWorkload.get(`${namespace}/${link.kind}/${link.name}`);
      if (vpaId === undefined) continue;
      routes.push({ namespace, pod, vpaId });
      break;
    }
  }
  return routes;
}
