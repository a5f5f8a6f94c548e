/**
 * The usage history per VPA x container, fed from the usage feed. The feed reports samples by
 * `namespace/pod/container`; {@link VpaAggregates.routePods} says which VPA each current pod belongs
 * to (pods that are gone keep their last VPA, so history of replaced pods still counts).
 *
 * A state restored from a checkpoint ignores samples at or before its `lastSampleStart` (they are
 * in the checkpoint already), so a restart can re-read an overlapping window without counting a
 * sample twice.
 *
 * The same OOM kill usually arrives twice: from pod status (`lastState.terminated`, exact time) and
 * from Prometheus (a step later). Only the first report of a container's kill is recorded: a report
 * within {@link SAME_OOM_KILL_MS} of one already recorded is the same kill. Recording it twice
 * would bump memory a second time from a request the updater may have raised meanwhile (seen in the
 * demo: 256Mi -> 384Mi request, then a second bump to 561Mi instead of ~307Mi). Kills at or before a
 * restored checkpoint's last sample are in the checkpoint already and are not recorded again.
 */
import type { ContainerSeries, OomEvent, ContainerKey } from '../../metrics/metrics-source.ts';
import type { UsageSink } from '../../metrics/usage-feed.ts';
import { AggregateContainerState } from '../../recommender/aggregate-container-state.ts';
import type { ModelConfig } from '../../recommender/model-config.ts';

/**
 * Two reports of a container's OOM kill this close together are one kill: Prometheus reports a
 * kill at its query step after the kill (1 min by default) plus up to a scrape interval, so 5 min
 * covers both with room. Real repeated kills this close (a crash loop) bump from the same peak and
 * would add nothing anyway (an OOM bump only replaces a smaller peak of the same window).
 */
export const SAME_OOM_KILL_MS = 5 * 60_000;

/** A container's memory request as last seen, with the one before it and when the change was seen. */
interface RequestSeen {
  bytes: number;
  /** When `bytes` was first seen (ms); -Infinity for the first sight. */
  since: number;
  before?: number;
}

/** One VPA x container history. */
export interface TrackedContainer {
  state: AggregateContainerState;
  /** Samples at or before this time are already in `state` (from a checkpoint). */
  resumeAfter?: number;
}

export class VpaAggregates implements UsageSink {
  /** vpa id (`namespace/name`) -> container name -> history. */
  readonly byVpa = new Map<string, Map<string, TrackedContainer>>();
  /** `namespace/pod` -> vpa id. */
  private readonly podVpa = new Map<string, string>();
  /** `namespace/pod/container` -> last memory sample (bytes), for the memory in use at an OOM kill. */
  private readonly lastMemory = new Map<string, number>();
  /** `namespace/pod/container` -> memory request (bytes), and the one before it when it changed. */
  private readonly requests = new Map<string, RequestSeen>();
  /** `namespace/pod/container` -> time of the last OOM kill recorded. */
  private readonly lastOom = new Map<string, number>();
  /** Samples of pods that belong to no handled VPA (dropped). */
  unrouted = 0;

  constructor(private readonly config: ModelConfig) {}

  /**
   * Which VPA each pod belongs to, and its containers' memory requests (bytes) as seen at
   * `observedAt` (ms). A request that changed since the last call is remembered with the one before
   * it, so an OOM kill from before the change is valued at the request the container had then.
   */
  routePods(pods: ReadonlyArray<{ namespace: string; pod: string; vpaId: string; memoryRequests: ReadonlyMap<string, number> }>, observedAt = Number.NEGATIVE_INFINITY): void {
    for (const p of pods) {
      this.podVpa.set(`${p.namespace}/${p.pod}`, p.vpaId);
      for (const [c, bytes] of p.memoryRequests) {
        const id = `${p.namespace}/${p.pod}/${c}`;
        const seen = this.requests.get(id);
        if (!seen) this.requests.set(id, { bytes, since: Number.NEGATIVE_INFINITY });
        else if (seen.bytes !== bytes) this.requests.set(id, { bytes, since: observedAt, before: seen.bytes });
      }
    }
  }

  /** The memory request a container had at `at`, as far as the calls to routePods saw it. */
  private requestAt(id: string, at: number): number | undefined {
    const seen = this.requests.get(id);
    if (!seen) return undefined;
    return at < seen.since && seen.before !== undefined ? seen.before : seen.bytes;
  }

  /** The history of a VPA's container, created empty at `now` when new. */
  container(vpaId: string, container: string, now?: number): TrackedContainer {
    let containers = this.byVpa.get(vpaId);
    if (!containers) this.byVpa.set(vpaId, (containers = new Map()));
    let tracked = containers.get(container);
    if (!tracked) containers.set(container, (tracked = { state: new AggregateContainerState(this.config, now) }));
    return tracked;
  }

  /** Installs a history restored from a checkpoint. */
  restore(vpaId: string, container: string, state: AggregateContainerState): void {
    if (!this.byVpa.has(vpaId)) this.byVpa.set(vpaId, new Map());
    const tracked: TrackedContainer = { state };
    if (state.lastSampleStart !== undefined) tracked.resumeAfter = state.lastSampleStart;
    this.byVpa.get(vpaId)!.set(container, tracked);
  }

  private target(key: ContainerKey): TrackedContainer | undefined {
    const vpaId = this.podVpa.get(`${key.namespace}/${key.pod}`);
    if (vpaId === undefined) return undefined;
    return this.container(vpaId, key.container);
  }

  cpu(series: ContainerSeries): void {
    const t = this.target(series.key);
    if (!t) return void (this.unrouted += series.times.length);
    for (let i = 0; i < series.times.length; i++) {
      const at = series.times[i]!;
      if (t.resumeAfter !== undefined && at <= t.resumeAfter) continue;
      t.state.addCpuSample(series.values[i]!, at, series.key.pod);
    }
  }

  memory(series: ContainerSeries): void {
    const t = this.target(series.key);
    if (!t) return void (this.unrouted += series.times.length);
    for (let i = 0; i < series.times.length; i++) {
      const at = series.times[i]!;
      if (t.resumeAfter !== undefined && at <= t.resumeAfter) continue;
      t.state.addMemorySample(series.values[i]!, at, series.key.pod);
    }
    if (series.values.length > 0) this.lastMemory.set(`${series.key.namespace}/${series.key.pod}/${series.key.container}`, series.values[series.values.length - 1]!);
  }

  /** An OOM kill reported by Prometheus (a bumped memory sample at once). */
  oom(event: OomEvent): void {
    this.recordOom(event.key, event.at);
  }

  /**
   * Records an OOM kill of a container: memory in use is the larger of its request at the kill and
   * its last sample (`requestBytes` overrides the remembered request). Returns false for an unrouted
   * pod, and for a kill already recorded (see SAME_OOM_KILL_MS) or in a restored checkpoint.
   */
  recordOom(key: ContainerKey, at: number, requestBytes?: number): boolean {
    const t = this.target(key);
    if (!t) return false;
    if (t.resumeAfter !== undefined && at <= t.resumeAfter) return false;
    const id = `${key.namespace}/${key.pod}/${key.container}`;
    const previous = this.lastOom.get(id);
    if (previous !== undefined && Math.abs(at - previous) <= SAME_OOM_KILL_MS) return false;
    const used = Math.max(requestBytes ?? this.requestAt(id, at) ?? 0, this.lastMemory.get(id) ?? 0);
    const recorded = t.state.recordOom(used, at, key.pod);
    if (recorded) this.lastOom.set(id, at);
    return recorded;
  }

  /** Drops containers with no sample for the memory window (renamed or removed) and VPAs no longer handled. */
  prune(now: number, handled: ReadonlySet<string>): void {
    for (const [vpaId, containers] of this.byVpa) {
      if (!handled.has(vpaId)) {
        this.byVpa.delete(vpaId);
        continue;
      }
      for (const [name, t] of containers) if (t.state.isExpired(now)) containers.delete(name);
    }
    for (const [pod, vpaId] of this.podVpa) if (!handled.has(vpaId)) this.podVpa.delete(pod);
    for (const [id, at] of this.lastOom) if (at < now - SAME_OOM_KILL_MS) this.lastOom.delete(id);
  }

  /** Number of VPA x container histories held. */
  size(): number {
    let n = 0;
    for (const c of this.byVpa.values()) n += c.size;
    return n;
  }
}
