/**
 * The pod QoS class, computed as Kubernetes computes it (the `GetPodQOS`/`ComputePodQOS` rule):
 * only cpu and memory count, and only non-zero values; requests and limits are summed over all
 * containers, init containers included.
 * - BestEffort: no container has a non-zero cpu or memory request or limit.
 * - Guaranteed: every container has both a cpu and a memory limit, and for each resource the
 *   summed requests equal the summed limits (with requests <= limits, that is requests == limits
 *   in every container).
 * - Burstable: anything else.
 * With pod-level resources (`spec.resources`, feature PodLevelResources) the same rule is applied
 * to the pod-level requests and limits alone. Values are compared in whole millicores and bytes.
 * The resize API refuses any change of this class.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { RESOURCE_NAMES } from 'kube-basics/resources';
import { readResourceValues, type ContainerResourceValues } from './container-values.ts';

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** The QoS class of a set of containers' values (defaulted requests, as the API server stores them). */
export function qosClassOf(containers: readonly ContainerResourceValues[]): QosClass {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  for (const c of containers) {
    let cpuLimit = false;
    let memoryLimit = false;
    for (const name of RESOURCE_NAMES) {
      const request = c.requests[name];
      if (request !== undefined && request > 0) requests.set(name, (requests.get(name) ?? 0) + request);
      const limit = c.limits[name];
      if (limit !== undefined && limit > 0) {
        limits.set(name, (limits.get(name) ?? 0) + limit);
        if (name === 'cpu') cpuLimit = true;
        else memoryLimit = true;
      }
    }
    if (!cpuLimit || !memoryLimit) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, request] of requests) {
      if (limits.get(name) !== request) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** The values QoS is computed from: pod-level resources if set, else every container's. Throws QuantityError. */
export function qosInputs(pod: V1Pod): ContainerResourceValues[] {
  const spec = pod.spec;
  if (spec?.resources && (spec.resources.requests || spec.resources.limits)) return [readResourceValues(spec.resources)];
  return [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])].map((c) => readResourceValues(c.resources));
}

/** The pod's QoS class, computed from its spec. Throws QuantityError on a malformed quantity. */
export function computePodQos(pod: V1Pod): QosClass {
  return qosClassOf(qosInputs(pod));
}

/** The class the API server holds the pod to: `status.qosClass` when set, else computed. */
export function podQosClass(pod: V1Pod): QosClass {
  const recorded = pod.status?.qosClass;
  if (recorded === 'Guaranteed' || recorded === 'Burstable' || recorded === 'BestEffort') return recorded;
  return computePodQos(pod);
}
