/**
 * What each container actually has, as opposed to what its spec asks for. The two differ while a
 * resize is pending, deferred or infeasible, so decisions start from the actual values:
 * 1. `status.containerStatuses[].resources`: what the kubelet applied (1.33+, and 1.27+ with the
 *    feature gate);
 * 2. else `allocatedResources` (requests the node admitted) for the requests, with the spec's limits;
 * 3. else the spec (older servers, or a container that has no status yet).
 * A running container without `resources` in its status is on a node without resize support
 * (the API server refuses to resize such a pod: "Pod running on node without support for resize").
 */
import type { V1Container, V1ContainerStatus, V1Pod, V1ResourceRequirements } from '@kubernetes/client-node';

/** Which field the actual values came from. */
export type ActualSource = 'status' | 'allocated' | 'spec';

/** One resizable container (regular or restartable sidecar init container). */
export interface ActualContainerResources {
  name: string;
  kind: 'container' | 'sidecar';
  /** The requests and limits the container runs with. */
  actual: V1ResourceRequirements;
  /** What the spec asks for (the desired values). */
  desired: V1ResourceRequirements;
  source: ActualSource;
  /** True if the container reports a running state. */
  running: boolean;
}

function actualOf(container: V1Container, status: V1ContainerStatus | undefined): { actual: V1ResourceRequirements; source: ActualSource } {
  const spec = container.resources ?? {};
  if (status?.resources) return { actual: status.resources, source: 'status' };
  if (status?.allocatedResources) {
    const actual: V1ResourceRequirements = { requests: { ...status.allocatedResources } };
    if (spec.limits) actual.limits = spec.limits;
    return { actual, source: 'allocated' };
  }
  return { actual: spec, source: 'spec' };
}

/** The resizable containers of a pod with their actual and desired resources. */
export function actualResources(pod: V1Pod): ActualContainerResources[] {
  const statuses = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s]));
  const initStatuses = new Map((pod.status?.initContainerStatuses ?? []).map((s) => [s.name, s]));
  const out: ActualContainerResources[] = [];
  const add = (c: V1Container, kind: 'container' | 'sidecar', status: V1ContainerStatus | undefined) => {
    const { actual, source } = actualOf(c, status);
    out.push({ name: c.name, kind, actual, desired: c.resources ?? {}, source, running: status?.state?.running !== undefined });
  };
  for (const c of pod.spec?.containers ?? []) add(c, 'container', statuses.get(c.name));
  for (const c of pod.spec?.initContainers ?? []) if (c.restartPolicy === 'Always') add(c, 'sidecar', initStatuses.get(c.name));
  return out;
}

/** The actual values by container name, as the policy's `currentResources` input wants them. */
export function actualByName(containers: readonly ActualContainerResources[]): Record<string, V1ResourceRequirements> {
  return Object.fromEntries(containers.map((c) => [c.name, c.actual]));
}

/** True if some running container reports no `resources`: the node cannot resize in place. */
export function nodeLacksResizeSupport(containers: readonly ActualContainerResources[]): boolean {
  return containers.some((c) => c.running && c.source !== 'status');
}

/**
 * Which of the named containers are not running (waiting in CrashLoopBackOff, or just exited). An
 * in-place resize keeps nothing for them, and the real kubelet (v1.35.4, seen in the real-cluster
 * lane) reports such a resize applied (`status.resources`, the container's own cgroup) while the
 * pod's cgroup keeps the old memory limit: the restarted container is OOM-killed at the old size
 * again, and each kill would call for another raise (decision 0201).
 */
export function notRunning(containers: readonly ActualContainerResources[], names: readonly string[]): string[] {
  return names.filter((n) => containers.find((c) => c.name === n)?.running === false);
}
