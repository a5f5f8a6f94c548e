/**
 * The pod QoS class as the API server computes it (Guaranteed, Burstable, BestEffort), from the
 * cpu and memory requests and limits of all containers (init containers included). Up to 1.36 the
 * requests and limits above zero are summed over the containers ({@link computeQosClass}); 1.37
 * judges each container and resource on its own ({@link computeQosClassByContainer}). They differ
 * only for odd specs, e.g. a negative quantity in a resize: cpu -300m/-300m is ignored up to 1.36
 * (the pod reads as Burstable, so a Guaranteed pod's resize also says "QOS Class may not change")
 * and is "equal and non-zero", so Guaranteed, on 1.37.
 *
 * A pod with pod-level resources (`spec.resources`, KEP-2837) takes its class from them alone, the
 * containers' being ignored: up to 1.36 whenever `spec.resources` is present, summed as above; on
 * 1.37 (PodLevelResourcesFixKubeletQOSClass) when it sets a request or limit, judged per resource.
 */
import { parseQuantity } from 'kube-basics/quantity';
import type { Container, Pod, ResourceRequirements } from './objects.ts';
import { hasPodLevelResources } from './pod-resources.ts';

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const QOS_RESOURCES = ['cpu', 'memory'] as const;

function amount(value: string): number {
  // Compared in milli-units so "1" and "1000m" are equal; memory uses the same exact parser.
  return parseQuantity(value, 3);
}

/**
 * Computes the QoS class from the spec (ignores `status.qosClass`).
 * Guaranteed: every container has cpu and memory limits and the summed requests equal the summed
 * limits; BestEffort: no cpu/memory request or limit anywhere; otherwise Burstable.
 */
export function computeQosClass(pod: Pod): QosClass {
  const podLevel = pod.spec.resources;
  const containers: Container[] = podLevel !== undefined ? [podLevelAsContainer(podLevel)] : [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  for (const c of containers) {
    for (const name of QOS_RESOURCES) {
      // A request left out defaults to the limit (as the API server's defaulting does).
      const req = c.resources?.requests?.[name] ?? (podLevel === undefined ? c.resources?.limits?.[name] : undefined);
      if (req !== undefined && amount(req) > 0) requests.set(name, (requests.get(name) ?? 0) + amount(req));
    }
    const found = new Set<string>();
    for (const name of QOS_RESOURCES) {
      const lim = c.resources?.limits?.[name];
      if (lim !== undefined && amount(lim) > 0) {
        found.add(name);
        limits.set(name, (limits.get(name) ?? 0) + amount(lim));
      }
    }
    // Pod-level limits make the pod non-Guaranteed only when there are some (upstream's pod-level branch).
    if (found.size !== QOS_RESOURCES.length && (podLevel === undefined || Object.keys(podLevel.limits ?? {}).length > 0)) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      if (limits.get(name) !== req) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** The pod's recorded QoS class (`status.qosClass`), computed from the spec when absent. */
export function recordedQosClass(pod: Pod): QosClass {
  const recorded = pod.status?.qosClass;
  if (recorded === 'Guaranteed' || recorded === 'Burstable' || recorded === 'BestEffort') return recorded;
  return computeQosClass(pod);
}

/**
 * The 1.37 reading: per container and resource, request == limit (a missing request taken as the
 * limit, as defaulting does) is Guaranteed when non-zero and BestEffort when zero, anything else
 * Burstable; a container without requests or limits is BestEffort. The pod is Burstable when any
 * container is or when its containers disagree, else their common class.
 */
export function computeQosClassByContainer(pod: Pod): QosClass {
  if (hasPodLevelResources(pod)) return requirementsQos(pod.spec.resources);
  let podQos: QosClass | undefined;
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    const containerQos = requirementsQos(c.resources);
    if (containerQos === 'Burstable' || (podQos !== undefined && podQos !== containerQos)) return 'Burstable';
    podQos = containerQos;
  }
  return podQos ?? 'BestEffort';
}

/** 1.37's `requirementsQOS`: one set of requests and limits (a container's or the pod's) judged per resource. */
function requirementsQos(resources: ResourceRequirements | undefined): QosClass {
  const requests = resources?.requests ?? {};
  const limits = resources?.limits ?? {};
  if (Object.keys(requests).length === 0 && Object.keys(limits).length === 0) return 'BestEffort';
  let qos: QosClass | undefined;
  for (const name of QOS_RESOURCES) {
    const limit = limits[name] === undefined ? 0 : amount(limits[name]);
    const request = requests[name] === undefined ? limit : amount(requests[name]);
    const resourceQos: QosClass = request !== limit ? 'Burstable' : request === 0 ? 'BestEffort' : 'Guaranteed';
    if (resourceQos === 'Burstable' || (qos !== undefined && qos !== resourceQos)) return 'Burstable';
    qos = resourceQos;
  }
  return qos!;
}

/** The pod-level resources read as one container's, for the summed reading. */
function podLevelAsContainer(resources: ResourceRequirements): Container {
  return { name: '', resources };
}
