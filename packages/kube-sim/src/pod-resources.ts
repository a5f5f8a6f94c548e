/**
 * Reading container and pod resources as numbers (CPU in millicores, memory in bytes), the units of
 * `src/model/types.ts`. A missing request or limit reads as 0 (requests) or undefined (limits).
 */
import { parseCpu, parseMemory } from 'kube-basics/quantity';
import type { Resources } from 'kube-basics/resources';
import type { Container, Pod, ResourceList } from './objects.ts';

// Quantities repeat a lot (every pod of a workload has the same ones): parse each string once.
const MEMO_LIMIT = 10_000;
const cpuMemo = new Map<string, number>();
const memoryMemo = new Map<string, number>();
function memo(cache: Map<string, number>, parse: (s: string) => number, text: string): number {
  let value = cache.get(text);
  if (value === undefined) {
    value = parse(text);
    if (cache.size >= MEMO_LIMIT) cache.clear();
    cache.set(text, value);
  }
  return value;
}
/** parseCpu with a cache: millicores. */
export function cpuOf(text: string): number {
  return memo(cpuMemo, parseCpu, String(text));
}
/** parseMemory with a cache: bytes. */
export function memoryOf(text: string): number {
  return memo(memoryMemo, parseMemory, String(text));
}

/** Parses the cpu and memory entries of a resource list; absent entries are 0. */
export function readResources(list: ResourceList | undefined): Resources {
  return {
    cpu: list?.cpu === undefined ? 0 : cpuOf(list.cpu),
    memory: list?.memory === undefined ? 0 : memoryOf(list.memory),
  };
}

/** The container's limits; a resource without a limit is `undefined` (unbounded). */
export function readLimits(list: ResourceList | undefined): { cpu?: number; memory?: number } {
  return {
    cpu: list?.cpu === undefined ? undefined : cpuOf(list.cpu),
    memory: list?.memory === undefined ? undefined : memoryOf(list.memory),
  };
}

/** An init container with `restartPolicy: Always` is a sidecar: it runs beside the app containers. */
export function isSidecar(container: Container): boolean {
  return container.restartPolicy === 'Always';
}

/** Whether the pod has pod-level requests or limits (`spec.resources`, KEP-2837; `isPodLevelResourcesSet`). */
export function hasPodLevelResources(pod: Pod): boolean {
  return Object.keys(pod.spec.resources?.requests ?? {}).length + Object.keys(pod.spec.resources?.limits ?? {}).length > 0;
}

/** Adds two resource amounts. */
export function addResources(a: Resources, b: Resources): Resources {
  return { cpu: a.cpu + b.cpu, memory: a.memory + b.memory };
}

/**
 * What the scheduler charges a pod on a node: the app containers' and sidecars' requests summed,
 * or the largest plain init container's request if larger (init containers run one at a time);
 * a pod-level request (`spec.resources.requests`) replaces that sum for its resource, as
 * `resourcehelper.PodRequests` does (1.34+, where pod-level resources are on).
 * Worked example: app 200m + sidecar 50m = 250m; an init container asking 500m makes it 500m;
 * a pod-level request of 600m makes it 600m.
 */
export function podRequests(pod: Pod): Resources {
  let running: Resources = { cpu: 0, memory: 0 };
  for (const c of pod.spec.containers) running = addResources(running, readResources(c.resources?.requests));
  for (const c of pod.spec.initContainers ?? []) {
    if (isSidecar(c)) running = addResources(running, readResources(c.resources?.requests));
  }
  let cpu = running.cpu;
  let memory = running.memory;
  for (const c of pod.spec.initContainers ?? []) {
    if (isSidecar(c)) continue;
    const r = readResources(c.resources?.requests);
    cpu = Math.max(cpu, r.cpu);
    memory = Math.max(memory, r.memory);
  }
  const podLevel = pod.spec.resources?.requests;
  if (podLevel?.cpu !== undefined) cpu = cpuOf(podLevel.cpu);
  if (podLevel?.memory !== undefined) memory = memoryOf(podLevel.memory);
  return { cpu, memory };
}

/** Whether a pod still holds node resources (bound and not finished). */
export function holdsNodeResources(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return Boolean(pod.spec.nodeName) && phase !== 'Succeeded' && phase !== 'Failed';
}
