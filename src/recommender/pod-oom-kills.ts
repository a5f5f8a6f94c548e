/**
 * OOM kills as pod status reports them: a container whose `lastState.terminated.reason` is
 * `OOMKilled`. Each kill is identified by pod, container and `finishedAt`, so a kill seen again in
 * the next cycle is recorded once. The memory in use at the kill is taken as the container's memory
 * request (the model raises it to the observed peak when that is larger). Native sidecars (init
 * containers with `restartPolicy: Always`, reported in `initContainerStatuses`) count like
 * containers; an ordinary init container's kill is not read (its usage never reaches a
 * recommendation, init-containers.ts).
 */
import { parseMemory } from 'kube-basics/quantity';
import { parseRfc3339 } from '../api/rfc3339.ts';

/** The parts of a pod this reads. */
export interface PodLike {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  spec?: { containers?: ContainerLike[]; initContainers?: ContainerLike[] };
  status?: { containerStatuses?: ContainerStatusLike[]; initContainerStatuses?: ContainerStatusLike[] };
}

type ContainerLike = { name: string; restartPolicy?: string; resources?: { requests?: Record<string, string> } };
type ContainerStatusLike = { name: string; lastState?: { terminated?: { reason?: string; finishedAt?: string | Date } } };

/** The containers that run beside each other: regular ones and native sidecars. */
function runningContainers(pod: PodLike): ContainerLike[] {
  return [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
}

/** One OOM kill seen on a pod. */
export interface PodOomKill {
  /** `namespace/pod/container/finishedAt`: the same kill has the same id in every cycle. */
  id: string;
  namespace: string;
  pod: string;
  container: string;
  at: number;
  /** The container's memory request in bytes, 0 when it has none. */
  requestBytes: number;
}

/** The memory request of a container in bytes (0 when unset or malformed). */
export function memoryRequest(pod: PodLike, container: string): number {
  const raw = runningContainers(pod).find((c) => c.name === container)?.resources?.requests?.['memory'];
  if (raw === undefined) return 0;
  try {
    return parseMemory(raw);
  } catch {
    return 0;
  }
}

/** Each container's memory request (bytes). */
export function memoryRequests(pod: PodLike): Map<string, number> {
  return new Map(runningContainers(pod).map((c) => [c.name, memoryRequest(pod, c.name)]));
}

/** The OOM kills a pod's status reports (at most one per container: the last termination). */
export function podOomKills(pod: PodLike): PodOomKill[] {
  const namespace = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '';
  const out: PodOomKill[] = [];
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? []).filter((s) => sidecars.has(s.name))];
  for (const s of statuses) {
    const t = s.lastState?.terminated;
    if (t?.reason !== 'OOMKilled' || t.finishedAt === undefined) continue;
    let at: number;
    try {
      at = t.finishedAt instanceof Date ? t.finishedAt.getTime() : parseRfc3339(t.finishedAt);
    } catch {
      continue;
    }
    out.push({ id: `${namespace}/${name}/${s.name}/${at}`, namespace, pod: name, container: s.name, at, requestBytes: memoryRequest(pod, s.name) });
  }
  return out;
}
