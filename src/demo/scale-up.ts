/**
 * The demo's stand-in for a cluster autoscaler: when a pod fits no node (its PodScheduled
 * condition is False with reason Unschedulable), add the scenario's `scaleUp` node, once. The
 * batch workload's recreated pod, which the admission webhook gave the recommendation of about
 * 2.2 cores, needs it: the small nodes have 2.
 */
import type { NodeSpec } from 'kube-sim/scenario';
import type { NodeObject, Pod } from 'kube-sim/objects';

/** The first unschedulable pod, or undefined. */
export function unschedulablePod(pods: readonly Pod[]): Pod | undefined {
  return pods.find(
    (p) =>
      !p.metadata.deletionTimestamp && p.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable'),
  );
}

/** The node to add now, if any: `spec` when a pod is unschedulable and the node is not there yet. */
export function nodeToAdd(pods: readonly Pod[], nodes: readonly NodeObject[], spec: NodeSpec | undefined): { node: NodeSpec; for: Pod } | undefined {
  if (!spec || nodes.some((n) => n.metadata.name === spec.name)) return undefined;
  const pod = unschedulablePod(pods);
  return pod ? { node: spec, for: pod } : undefined;
}
