/**
 * The pod's own resource status the kubelet reports from 1.36 (InPlacePodLevelResourcesVerticalScaling),
 * for every pod, with or without pod-level resources, as seen on the real v1.36.3 and v1.37.2:
 * - `status.allocatedResources`: the pod's requests as the scheduler sums them
 *   (`resourcehelper.PodRequests`): a pod-level request, else the containers' aggregate,
 *   e.g. `{cpu: 200m, memory: 64Mi}`;
 * - `status.resources`: what its pod cgroup was given: the pod-level requests and limits, else
 *   the containers' aggregate requests and, for a resource every container limits, the sum of
 *   their limits, once the resize is actuated. The memory request (the cgroup has none) differs:
 *   1.36 keeps the one reported first while the pod runs (upstream's
 *   `convertToAPIPodLevelResourcesStatus` preserves it: memory 64Mi → 96Mi and limit 128Mi → 160Mi
 *   reads `requests.memory: 64Mi, limits.memory: 160Mi` afterwards); 1.37 reports the allocated one,
 *   from the moment the resize is allocated (before the limits follow).
 * The real kubelet applied a pod-level resize within about 40-80 ms of the API server's answer
 * (PodResizeInProgress, then done; v1.36.3 and v1.37.2); kube-sim takes its actuation delay, as
 * for a container.
 */
import { aggregateRequests } from '../pod-level-resize-rules.ts';
import { formatQuantity } from '../apiserver/quantity-canonical.ts';
import { parseQuantity } from 'kube-basics/quantity';
import type { Pod, PodStatus, ResourceList, ResourceRequirements } from '../objects.ts';
import { reportsAllocatedPodMemoryRequest, type ServerVersion } from '../server-version.ts';

const CPU_MEMORY = ['cpu', 'memory'] as const;

/** `status.allocatedResources` of the pod: its requests as the scheduler sums them (cpu and memory). */
export function podAllocatedResources(pod: Pod): ResourceList {
  const out: ResourceList = {};
  const aggregate = aggregateRequests(pod);
  for (const name of CPU_MEMORY) {
    const podLevel = pod.spec.resources?.requests?.[name];
    const containers = aggregate.get(name);
    if (podLevel !== undefined) out[name] = podLevel;
    else if (containers !== undefined) out[name] = formatQuantity(containers.milli, containers.like);
  }
  return out;
}

/** The pod cgroup's limits: pod-level limits, else for each resource all containers limit, their sum. */
function podLimits(pod: Pod): ResourceList {
  const out: ResourceList = {};
  const all = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
  for (const name of CPU_MEMORY) {
    const podLevel = pod.spec.resources?.limits?.[name];
    if (podLevel !== undefined) out[name] = podLevel;
    else if (pod.spec.resources === undefined && all.length > 0 && all.every((c) => c.resources?.limits?.[name] !== undefined)) {
      const sum = all.reduce((total, c) => total + parseQuantity(c.resources!.limits![name]!, 3), 0);
      out[name] = formatQuantity(sum, all[0]!.resources!.limits![name]!);
    }
  }
  return out;
}

/**
 * `status.resources` of the pod once its cgroup holds the spec: `previous` is what was reported
 * before (on 1.36 a running pod keeps its memory request; see the module comment).
 */
export function podStatusResources(pod: Pod, version: ServerVersion, previous?: ResourceRequirements): ResourceRequirements {
  const requests = podAllocatedResources(pod);
  const kept = previous?.requests?.memory;
  if (kept !== undefined && !reportsAllocatedPodMemoryRequest(version)) requests.memory = kept;
  const limits = podLimits(pod);
  return { ...(Object.keys(limits).length > 0 ? { limits } : {}), ...(Object.keys(requests).length > 0 ? { requests } : {}) };
}

/** The pod's own status when the kubelet allocates a resize: `allocatedResources`, and on 1.37 the memory request of `resources`. */
export function podStatusOnAllocation(status: PodStatus, pod: Pod, version: ServerVersion): PodStatus {
  if (status.allocatedResources === undefined) return status;
  const allocated = podAllocatedResources(pod);
  const out: PodStatus = { ...status, allocatedResources: allocated };
  if (reportsAllocatedPodMemoryRequest(version) && out.resources?.requests && allocated.memory !== undefined) {
    out.resources = { ...out.resources, requests: { ...out.resources.requests, memory: allocated.memory } };
  }
  return out;
}
