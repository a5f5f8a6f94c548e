/**
 * Time from recommendation to applied, for in-place resizes: from when the recommendation was
 * made to when the updater sees the pod running with the resized values (no resize in flight and
 * `status.containerStatuses[].resources` equal to what was sent).
 *
 * The start is read from the objects where they say it: the time of the VPA's newest `status`
 * write in its `managedFields` (the recommender's, `tailor-recommender` or upstream's), if that is
 * not after the resize was sent (`since="recommendation"`). The updater's first sight of the
 * difference (the first loop that planned a change for the pod) is also kept, in memory; the
 * earlier of the two is the start (`since="first-seen"` when that is the one used, e.g. the status
 * was written again after the change was planned). Worked number: status written 12:00:00,
 * difference first seen 12:00:40, resize sent 12:00:40, completion seen 12:00:43 -> 43 s, since
 * recommendation.
 *
 * The end is the arrival of the pod update (watch) that shows the resize completed, or the next
 * loop; an updater restart forgets resizes sent before it (they are not counted, never counted
 * twice). Evictions are not measured: the recreated pod gets its resources from the admission
 * webhook at creation.
 */
import type { V1ManagedFieldsEntry, V1Pod } from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import { readResourceValues } from '../policy/container-values.ts';
import { actualResources } from './actual-resources.ts';
import type { ContainerChange, PodDecision } from './decision.ts';
import { readResizeState } from './resize-state.ts';
import { formattedValues } from './resize-patch.ts';

/** Which start a sample used. */
export type LatencySince = 'recommendation' | 'first-seen';

/** One measured resize. */
export interface LatencySample {
  pod: string;
  path: 'in-place' | 'restart';
  since: LatencySince;
  seconds: number;
}

/** The time (ms) of the VPA's newest write of its status subresource, from its managedFields. */
export function recommendationTime(vpa: VerticalPodAutoscaler): number | undefined {
  const entries = ((vpa.metadata as { managedFields?: V1ManagedFieldsEntry[] }).managedFields ?? []).filter(
    (e) => e.subresource === 'status' && e.time !== undefined,
  );
  let newest: number | undefined;
  for (const e of entries) {
    const t = new Date(e.time as unknown as string | Date).getTime();
    if (Number.isFinite(t) && (newest === undefined || t > newest)) newest = t;
  }
  return newest;
}

/**
 * True when the pod runs with every changed container at the values sent (as the patch wrote them,
 * e.g. `768Mi`), read from `status.containerStatuses[].resources` (pod-level values: from the
 * spec), and no resize is in flight.
 */
export function resizeCompleted(pod: V1Pod, changes: readonly ContainerChange[]): boolean {
  if (readResizeState(pod).phase !== 'None') return false;
  const actual = new Map(actualResources(pod).map((c) => [c.name, c]));
  return changes.every((change) => {
    // Pod-level values: the spec holds them, and no resize in flight means the kubelet applied them.
    const c = change.kind === 'pod' ? { source: 'status', actual: pod.spec?.resources } : actual.get(change.containerName);
    if (c === undefined || c.source !== 'status') return false;
    const sent = readResourceValues(formattedValues(change));
    const now = readResourceValues(c.actual);
    return (['cpu', 'memory'] as const).every(
      (r) => (sent.requests[r] === undefined || sent.requests[r] === now.requests[r]) && (sent.limits[r] === undefined || sent.limits[r] === now.limits[r]),
    );
  });
}

interface Pending {
  uid: string | undefined;
  changes: readonly ContainerChange[];
  path: LatencySample['path'];
  start: number;
  since: LatencySince;
}

const podKey = (namespace: string, name: string) => `${namespace}/${name}`;

/** Follows sent resizes to their completion; the only state is in memory (see the file comment). */
export class ResizeLatencyTracker {
  private readonly firstSeen = new Map<string, number>();
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly observe: (sample: LatencySample) => void) {}

  /** After planning: remembers when a pod was first planned to change; forgets pods up to date or gone. */
  noteDecisions(decisions: readonly PodDecision[], now: number): void {
    const seen = new Set<string>();
    for (const d of decisions) {
      const key = podKey(d.namespace, d.podName);
      seen.add(key);
      if (d.action === 'Skip') this.firstSeen.delete(key);
      else if (!this.firstSeen.has(key)) this.firstSeen.set(key, now);
    }
    for (const key of [...this.firstSeen.keys()]) if (!seen.has(key)) this.firstSeen.delete(key);
    for (const key of [...this.pending.keys()]) if (!seen.has(key)) this.pending.delete(key);
  }

  /** A resize the server accepted at `now`. */
  noteApplied(decision: PodDecision, pod: V1Pod | undefined, vpa: VerticalPodAutoscaler | undefined, now: number): void {
    if (decision.action !== 'ResizeInPlace' && decision.action !== 'ResizeWithRestart') return;
    const key = podKey(decision.namespace, decision.podName);
    const recommended = vpa ? recommendationTime(vpa) : undefined;
    const first = this.firstSeen.get(key) ?? now;
    const fromStatus = recommended !== undefined && recommended <= first;
    this.pending.set(key, {
      uid: pod?.metadata?.uid,
      changes: decision.changes,
      path: decision.action === 'ResizeWithRestart' ? 'restart' : 'in-place',
      start: fromStatus ? recommended : first,
      since: fromStatus ? 'recommendation' : 'first-seen',
    });
  }

  /** A pod as seen at `at` (watch event or loop); records the sample if its resize has completed. */
  podSeen(pod: V1Pod, at: number): LatencySample | undefined {
    const key = podKey(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
    const p = this.pending.get(key);
    if (!p) return undefined;
    if (p.uid !== undefined && pod.metadata?.uid !== p.uid) {
      this.pending.delete(key);
      return undefined;
    }
    if (!resizeCompleted(pod, p.changes)) return undefined;
    this.pending.delete(key);
    this.firstSeen.delete(key);
    const sample: LatencySample = { pod: key, path: p.path, since: p.since, seconds: Math.max(0, at - p.start) / 1000 };
    this.observe(sample);
    return sample;
  }

  /** Resizes sent and not yet seen completed. */
  get inFlight(): number {
    return this.pending.size;
  }
}
