/**
 * The QoS class of a pod, as the API server computes it into `status.qosClass`:
 * BestEffort when no container (or init container) sets a cpu or memory request or limit;
 * Guaranteed when every container has cpu and memory limits and requests equal to them;
 * Burstable otherwise. Worked example: one container with requests cpu 250m and limits cpu 500m
 * is Burstable; with requests = limits = {cpu: 1, memory: 1Gi} it is Guaranteed.
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
export function podQosClass(spec: { containers?: ContainerLike[]; initContainers?: ContainerLike[] } | undefined): QosClass {
  const all = [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
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
