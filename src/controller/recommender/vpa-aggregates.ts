/**
 * The usage history per VPA x container, fed from the usage feed. The feed reports samples by
 * `namespace/pod/container`; {@link VpaAggregates.routePods} says which VPA each current pod belongs
 * to (pods that are gone keep their last VPA, so history of replaced pods still counts).
 *
 * A state restored from a checkpoint ignores samples at or before its `lastSampleStart` (they are
 * in the checkpoint already), so a restart can re-read an overlapping window without counting a
 * sample twice.
 *
 * With a strategy (`--recommender-strategy tailor`), each history also holds that strategy's
 * {@link UsageModel}, fed the same samples and OOM kills. The upstream state is kept alongside for
 * the upstream-format checkpoints (decision 0150). The model has no checkpoint: it is rebuilt from
 * the history the feed re-reads at start-up, so it takes every sample, also those at or before
 * `resumeAfter`. A time-ordered strategy gets each chunk's samples of all pods merged in time
 * order (the feed delivers one pod's series after another; the merge is flushed at `endChunk`).
 */
import type { ContainerSeries, OomEvent, ContainerKey } from '../../metrics/metrics-source.ts';
import type { UsageSink } from '../../metrics/usage-feed.ts';
import { AggregateContainerState } from '../../recommender/aggregate-container-state.ts';
import type { ModelConfig } from '../../recommender/model-config.ts';
import type { Strategy, UsageModel } from '../../recommender/types.ts';
import { TimeOrderedBuffer } from '../../report/time-ordered-buffer.ts';

/** One VPA x container history. */
export interface TrackedContainer {
  state: AggregateContainerState;
  /** Samples at or before this time are already in `state` (from a checkpoint). */
  resumeAfter?: number;
  /** The strategy's model (absent for the upstream algorithm, which reads `state`). */
  model?: UsageModel;
}

export class VpaAggregates implements UsageSink {
  /** vpa id (`namespace/name`) -> container name -> history. */
  readonly byVpa = new Map<string, Map<string, TrackedContainer>>();
  /** `namespace/pod` -> vpa id. */
  private readonly podVpa = new Map<string, string>();
  /** `namespace/pod/container` -> last memory sample (bytes), for the memory in use at an OOM kill. */
  private readonly lastMemory = new Map<string, number>();
  /** `namespace/pod/container` -> memory request (bytes). */
  private readonly requests = new Map<string, number>();
  /** Samples of pods that belong to no handled VPA (dropped). */
  unrouted = 0;

  private readonly buffer: TimeOrderedBuffer | undefined;

  /** @param strategy the strategy whose models to feed besides the upstream state (none: upstream only). */
  constructor(
    private readonly config: ModelConfig,
    private readonly strategy?: Strategy,
  ) {
    this.buffer = strategy?.timeOrdered ? new TimeOrderedBuffer() : undefined;
  }

  private newModel(): UsageModel | undefined {
    return this.strategy?.newModel();
  }

  /** Which VPA each pod belongs to, and its containers' memory requests (bytes). */
  routePods(pods: ReadonlyArray<{ namespace: string; pod: string; vpaId: string; memoryRequests: ReadonlyMap<string, number> }>): void {
    for (const p of pods) {
      this.podVpa.set(`${p.namespace}/${p.pod}`, p.vpaId);
      for (const [c, bytes] of p.memoryRequests) this.requests.set(`${p.namespace}/${p.pod}/${c}`, bytes);
    }
  }

  /** The history of a VPA's container, created empty at `now` when new. */
  container(vpaId: string, container: string, now?: number): TrackedContainer {
    let containers = this.byVpa.get(vpaId);
    if (!containers) this.byVpa.set(vpaId, (containers = new Map()));
    let tracked = containers.get(container);
    if (!tracked) {
      tracked = { state: new AggregateContainerState(this.config, now) };
      const model = this.newModel();
      if (model) tracked.model = model;
      containers.set(container, tracked);
    }
    return tracked;
  }

  /** Installs a history restored from a checkpoint. */
  restore(vpaId: string, container: string, state: AggregateContainerState): void {
    if (!this.byVpa.has(vpaId)) this.byVpa.set(vpaId, new Map());
    const tracked: TrackedContainer = { state };
    const model = this.newModel();
    if (model) tracked.model = model;
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
      if (t.model && !this.buffer) t.model.addCpuSample(series.values[i]!, at, series.key.pod);
      if (t.resumeAfter !== undefined && at <= t.resumeAfter) continue;
      t.state.addCpuSample(series.values[i]!, at, series.key.pod);
    }
    if (t.model && this.buffer) this.buffer.cpu(t.model, series);
  }

  memory(series: ContainerSeries): void {
    const t = this.target(series.key);
    if (!t) return void (this.unrouted += series.times.length);
    for (let i = 0; i < series.times.length; i++) {
      const at = series.times[i]!;
      if (t.model && !this.buffer) t.model.addMemorySample(series.values[i]!, at, series.key.pod);
      if (t.resumeAfter !== undefined && at <= t.resumeAfter) continue;
      t.state.addMemorySample(series.values[i]!, at, series.key.pod);
    }
    if (t.model && this.buffer) this.buffer.memory(t.model, series);
    if (series.values.length > 0) this.lastMemory.set(`${series.key.namespace}/${series.key.pod}/${series.key.container}`, series.values[series.values.length - 1]!);
  }

  /** An OOM kill reported by Prometheus (a bumped memory sample at once). */
  oom(event: OomEvent): void {
    this.recordOom(event.key, event.at, undefined, true);
  }

  /** The end of a chunk: the merged samples go to time-ordered models. */
  endChunk(): void {
    this.buffer?.flush();
  }

  /**
   * Records an OOM kill of a container: memory in use is the larger of its request and its last
   * sample (`requestBytes` overrides the remembered request). Returns false for an unrouted pod.
   * `fromHistory` (Prometheus): a kill at or before the restored checkpoint is in it already, so only
   * the model (rebuilt from the re-read history) gets it.
   */
  recordOom(key: ContainerKey, at: number, requestBytes?: number, fromHistory = false): boolean {
    const t = this.target(key);
    if (!t) return false;
    const id = `${key.namespace}/${key.pod}/${key.container}`;
    const used = Math.max(requestBytes ?? this.requests.get(id) ?? 0, this.lastMemory.get(id) ?? 0);
    // In a chunk (from Prometheus) the kill joins the merge; from pod status (between syncs) the
    // buffer is empty and the kill goes straight to the model.
    if (t.model && this.buffer && fromHistory) this.buffer.oom(t.model, used, at, key.pod);
    else t.model?.recordOom(used, at, key.pod);
    if (fromHistory && t.resumeAfter !== undefined && at <= t.resumeAfter) return false;
    return t.state.recordOom(used, at, key.pod);
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
  }

  /** Number of VPA x container histories held. */
  size(): number {
    let n = 0;
    for (const c of this.byVpa.values()) n += c.size;
    return n;
  }
}
