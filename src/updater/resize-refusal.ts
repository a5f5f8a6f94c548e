/**
 * A resize the API server refused because it can never fit the pod's node. Since Kubernetes 1.36
 * the admission plugin PodResizeValidator (kubernetes/kubernetes#136043) answers a resize whose pod
 * requests exceed the node's allocatable with 403 Forbidden, cause `NodeCapacity`: `pods "web-0" is
 * forbidden: node didn't have enough allocatable resources: cpu, requested: 3000, allocatable: 2000`.
 * Up to 1.35 the same resize is accepted and the kubelet marks it `PodResizePending` reason
 * Infeasible. The pod object then says nothing (its spec and generation are unchanged), so the
 * updater remembers the refusal and the planner reads it as that Infeasible state: InPlaceOrRecreate
 * falls back to an eviction (FallbackInfeasible), InPlace does not send the same resize again.
 * The memory is one entry per pod, dropped when the pod's generation moves (a resize went through),
 * when the pod is gone, or when its next resize is sent; after an updater restart a refused resize
 * is sent once more and refused again, which costs one request.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ClassifiedApiError } from '../kube/errors.ts';
import type { ContainerChange } from './decision.ts';
import type { ResizeState } from './resize-state.ts';

/** The cause the API server gives a resize beyond the node's allocatable. */
export const NODE_CAPACITY_CAUSE = 'NodeCapacity';

/** True if `error` is the API server refusing a resize for the node's capacity (1.36+). */
export function isNodeCapacityRefusal(error: ClassifiedApiError): boolean {
  if (error.code !== 403) return false;
  return error.causes.some((c) => c.reason === NODE_CAPACITY_CAUSE) || /node didn't have enough allocatable resources/.test(error.message);
}

/** One remembered refusal. */
export interface ResizeRefusal {
  /** The pod's uid and generation when refused: a new pod or a later resize ends the refusal. */
  uid: string;
  generation: number | undefined;
  /** When it was refused (ms). */
  at: number;
  /** The server's message. */
  message: string;
  /** What was asked. */
  changes: readonly ContainerChange[];
}

/** The resize state a refusal stands for: Infeasible since the refusal, with the server's words. */
export function refusalState(refusal: ResizeRefusal): ResizeState {
  return { phase: 'Infeasible', since: refusal.at, message: `refused by the API server: ${refusal.message}`, source: 'refusal' };
}

/** True if `changes` ask for exactly what was refused. */
export function sameAsRefused(refusal: ResizeRefusal, changes: readonly ContainerChange[]): boolean {
  const asked = new Map(refusal.changes.map((c) => [c.containerName, JSON.stringify(c.to)]));
  return changes.length > 0 && changes.every((c) => asked.get(c.containerName) === JSON.stringify(c.to));
}

/** The refusals remembered between loops, by pod uid. */
export class ResizeRefusals {
  private readonly byUid = new Map<string, ResizeRefusal>();

  /** Remembers that the resize `changes` of `pod` was refused at `now`. */
  note(pod: V1Pod, changes: readonly ContainerChange[], message: string, now: number): void {
    const uid = pod.metadata?.uid;
    if (uid) this.byUid.set(uid, { uid, generation: pod.metadata?.generation, at: now, message, changes });
  }

  /** Forgets the pod's refusal (a resize of it was sent and accepted). */
  forget(pod: V1Pod | undefined): void {
    const uid = pod?.metadata?.uid;
    if (uid) this.byUid.delete(uid);
  }

  /** The refusal that still describes `pod` (same uid, same generation), if any. */
  of(pod: V1Pod): ResizeRefusal | undefined {
    const refusal = pod.metadata?.uid ? this.byUid.get(pod.metadata.uid) : undefined;
    return refusal && refusal.generation === pod.metadata?.generation ? refusal : undefined;
  }

  /** Keeps only the refusals of `live` pods (uids) that still describe them. */
  prune(live: Iterable<V1Pod>): void {
    const keep = new Set<string>();
    for (const pod of live) if (this.of(pod)) keep.add(pod.metadata!.uid!);
    for (const uid of [...this.byUid.keys()]) if (!keep.has(uid)) this.byUid.delete(uid);
  }

  /** How many are remembered. */
  get size(): number {
    return this.byUid.size;
  }
}
