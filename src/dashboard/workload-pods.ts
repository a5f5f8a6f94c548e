/**
 * PromQL that maps pods to the workload that owns them, from kube-state-metrics alone (no recording
 * rules needed): pods owned directly (StatefulSet, DaemonSet, Job, a bare ReplicaSet) through
 * `kube_pod_owner`, and Deployment pods through their ReplicaSet's `kube_replicaset_owner`.
 * Every series has the value 1 and the labels namespace, pod and workload, so
 * `usage * on (namespace, pod) group_left(workload) <this>` keeps the usage and adds the workload.
 *
 * Example: pod web-7d9f-abcde is owned by ReplicaSet web-7d9f, whose owner is Deployment web:
 * the expression yields `{namespace="shop", pod="web-7d9f-abcde", workload="web"} 1`.
 */

/**
 * Pods of every workload in `namespace` (a matcher value, e.g. `$namespace`), or only of the
 * workload named by `workload` when given.
 */
export function workloadPods(namespace: string, workload?: string): string {
  const owner = workload === undefined ? '' : `, owner_name="${workload}"`;
  const direct = `label_replace(kube_pod_owner{namespace="${namespace}", owner_kind!~"ReplicaSet|<none>"${owner}}, "workload", "$1", "owner_name", "(.+)")`;
  // The ReplicaSet's owner becomes `workload`, its own name `owner_name`, to join with the pod's owner.
  const replicaSets = `label_replace(label_replace(kube_replicaset_owner{namespace="${namespace}", owner_kind!="<none>"${owner}}, "workload", "$1", "owner_name", "(.+)"), "owner_name", "$1", "replicaset", "(.+)")`;
  const viaReplicaSet = `kube_pod_owner{namespace="${namespace}", owner_kind="ReplicaSet"} * on (namespace, owner_name) group_left(workload) max by (namespace, owner_name, workload) (${replicaSets})`;
  return `max by (namespace, pod, workload) (${direct} or ${viaReplicaSet})`;
}
