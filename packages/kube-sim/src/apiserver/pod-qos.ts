/**
 * The QoS class of a pod, as the API server computes it into `status.qosClass`:
 * BestEffort when no container (or init container) sets a cpu or memory request or limit;
 * Guaranteed when every container has cpu and memory limits and requests equal to them;
 * Burstable otherwise. Worked example: one container with requests cpu 250m and limits cpu 500m
 * is Burstable; with requests = limits = {cpu: 1, memory: 1Gi} it is Guaranteed. A pod with
 * pod-level resources (`spec.resources`, KEP-2837) is judged by them alone, as one container's:
 * pod-level requests cpu 200m / memory 64Mi and limits 400m / 128Mi make it Burstable whatever its
 * containers ask (seen on the real v1.35.4, v1.36.3 and v1.37.2).
 */
import { parseCpu, parseMemory } from 'kube-basics/quantity';

/** The QoS classes. */
export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

interface ContainerLike {
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
}

function same(resource: string, a: unknown, b: unknown): boolean {
  const parse = resource === 'cpu' ? parseCpu : parseMemory;
  try {
    return parse(a) === parse(b);
  } catch {
    return false;
  }
}

/** Computes the QoS class from the containers and init containers of a pod spec. */
export function podQosClass(
  spec: { containers?: ContainerLike[]; initContainers?: ContainerLike[]; resources?: ContainerLike['resources'] } | undefined,
): QosClass {
  const all = spec?.resources !== undefined ? [{ resources: spec.resources }] : [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of all) {
    const requests = c.resources?.requests ?? {};
    const limits = c.resources?.limits ?? {};
    for (const r of ['cpu', 'memory']) {
      if (requests[r] !== undefined || limits[r] !== undefined) any = true;
      const request = requests[r] ?? limits[r];
      if (limits[r] === undefined || !same(r, request, limits[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
