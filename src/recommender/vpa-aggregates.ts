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
 * would bump memory a second time, from a request the updater may have raised meanwhile (seen in
 * the demo). Kills at or before a restored checkpoint's last sample are in the checkpoint already:
 * the upstream state does not record them again.
 *
 * CPU samples of a pod the webhook gave a start-up CPU boost are dropped until the boost's end
 * (`cpuSteadySince` of routePods): start-up usage under a boost is not the steady need. A pod
 * that is gone has no record to read: `cpuBoostWindow` drops its samples from its first one for
 * the VPA's boost window, unless that first sample is at the start of the read (the pod started
 * before it; decision 0234).
 *
 * With a strategy (`--recommender-strategy tailor`), each history also holds that strategy's
 * {@link UsageModel}, fed the same samples and OOM kills. The upstream state is kept alongside for
 * the upstream-format checkpoints (decision 0150). A model restored from its saved state (decision
 * 0261) ignores samples and kills at or before the last ones it had seen (`modelResumeAfter`); a
 * model without one is rebuilt from the history the feed re-reads at start-up, so it takes every
 * sample, also those at or before `resumeAfter`. A time-ordered strategy gets each chunk's samples of all pods merged in time
 * order (the feed delivers one pod's series after another; the merge is flushed at `endChunk`).
 *
 * A VPA's own memory settings (upstream 1.8's `oomBumpUpRatio`, `oomMinBumpUp`,
 * `memoryAggregationInterval{Seconds,Count}` in its container policies; `configure`) apply to its
 * histories from then on, as upstream's `UpdateFromPolicy`: the upstream state takes all four (its
 * config, policy/per-vpa-memory.ts), a strategy's model the OOM bump with each kill.
 * Ordinary init containers of a VPA's pods are dropped, histories held of them too (init-containers.ts).
 */
import type { ContainerSeries, OomEvent, ContainerKey } from '../metrics/metrics-source.ts';
import type { UsageSink } from '../metrics/usage-feed.ts';
import { AggregateContainerState } from '../model/aggregate-container-state.ts';
import { withMemorySettings, type ModelConfig } from '../model/model-config.ts';
import type { OomBump, Strategy, UsageModel } from '../model/types.ts';
import type { PodResourcePolicy } from '../api/vpa.ts';
import { perVpaMemorySettings, type PerVpaMemorySettings } from '../policy/per-vpa-memory.ts';
import { TimeOrderedBuffer } from '../report/time-ordered-buffer.ts';
import { InitContainerNames } from './init-containers.ts';

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
  /** The strategy's model (absent for the upstream algorithm, which reads `state`). */
  model?: UsageModel;
  /** The times of the last CPU and memory samples given to `model` (for its saved state). */
  modelThrough?: ModelThrough;
  /** A restored model has seen samples and kills up to these times already. */
  modelResumeAfter?: ModelThrough;
}

/** The last sample times a model has seen (ms). */
export interface ModelThrough {
  cpu: number;
  memory: number;
}

/** A gone pod's boost, placed when its first CPU sample arrives (decision 0234). */
export interface CpuBoostWindow {
  /** How long from the first sample the usage counts as boosted (ms). */
  windowMs: number;
  /** A first sample at or before this time is where the read began: the pod started earlier. */
  startedBefore: number;
}

/** Which VPA a pod belongs to, with what the aggregates need to know of it. */
export interface PodRoute {
  namespace: string;
  pod: string;
  vpaId: string;
  memoryRequests: ReadonlyMap<string, number>;
  /** A boosted pod's steady CPU from this time on (its record, policy/startup-boost.ts). */
  cpuSteadySince?: number;
  /** A gone pod of a VPA that asks for a boost: its boost window, from its first sample. */
  cpuBoostWindow?: CpuBoostWindow;
  /** A current pod (its spec read): its ordinary init containers, whose usage is dropped. */
  initContainers?: readonly string[];
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
  /** `namespace/pod` -> the start of steady CPU usage of a pod given a start-up boost. */
  private readonly cpuSteadyFrom = new Map<string, number>();
  /** `namespace/pod` -> a gone pod's boost window, placed at its first CPU sample when it comes. */
  private readonly cpuBoostWindows = new Map<string, CpuBoostWindow>();
  /** vpa id -> its resource policy (as JSON, to see a change) and settings by container name. */
  private readonly policies = new Map<string, { key: string; policy: PodResourcePolicy | undefined; byContainer: Map<string, PerVpaMemorySettings> }>();
  /** The ordinary init containers of each VPA's current pods (their samples are dropped). */
  private readonly initContainers = new InitContainerNames();
  /** Samples of pods that belong to no handled VPA (dropped). */
  unrouted = 0;
  /** Samples of ordinary init containers (dropped: no container's usage). */
  initContainerSamples = 0;
  /** CPU samples of boosted pods' start-up (dropped: not steady usage). */
  boostedStartupSamples = 0;

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

  /**
   * Which VPA each pod belongs to, and its containers' memory requests (bytes) as seen at
   * `observedAt` (ms). A request that changed since the last call is remembered with the one before
   * it, so an OOM kill from before the change is valued at the request the container had then.
   */
  routePods(pods: ReadonlyArray<PodRoute>, observedAt = Number.NEGATIVE_INFINITY): void {
    for (const p of pods) {
      this.podVpa.set(`${p.namespace}/${p.pod}`, p.vpaId);
      if (p.cpuSteadySince !== undefined) this.cpuSteadyFrom.set(`${p.namespace}/${p.pod}`, p.cpuSteadySince);
      else if (p.cpuBoostWindow !== undefined && !this.cpuSteadyFrom.has(`${p.namespace}/${p.pod}`))
        this.cpuBoostWindows.set(`${p.namespace}/${p.pod}`, p.cpuBoostWindow);
      for (const [c, bytes] of p.memoryRequests) {
        const id = `${p.namespace}/${p.pod}/${c}`;
        const seen = this.requests.get(id);
        if (!seen) this.requests.set(id, { bytes, since: Number.NEGATIVE_INFINITY });
        else if (seen.bytes !== bytes) this.requests.set(id, { bytes, since: observedAt, before: seen.bytes });
      }
    }
    const specs = pods.flatMap((p) => (p.initContainers ? [{ vpaId: p.vpaId, initContainers: p.initContainers, containers: p.memoryRequests.keys() }] : []));
    for (const [vpaId, names] of this.initContainers.learn(specs)) for (const name of names) this.byVpa.get(vpaId)?.delete(name);
  }

  /**
   * The VPA's resource policy (validated): its containers' own memory settings apply to their
   * histories from now on (a change is applied to the histories already held).
   */
  configure(vpaId: string, resourcePolicy: PodResourcePolicy | undefined): void {
    const key = JSON.stringify(resourcePolicy ?? null);
    if (this.policies.get(vpaId)?.key === key) return;
    this.policies.set(vpaId, { key, policy: resourcePolicy, byContainer: new Map() });
    for (const [name, t] of this.byVpa.get(vpaId) ?? []) t.state.config = this.configFor(vpaId, name);
  }

  /** A container's settings from its VPA's policy (`{}` when none). */
  private settingsOf(vpaId: string, container: string): PerVpaMemorySettings {
    const entry = this.policies.get(vpaId);
    if (!entry) return {};
    let settings = entry.byContainer.get(container);
    if (!settings) entry.byContainer.set(container, (settings = perVpaMemorySettings(entry.policy, container)));
    return settings;
  }

  /** The upstream state's config for a container: the shared one with its VPA's memory settings. */
  private configFor(vpaId: string, container: string): ModelConfig {
    try {
      return withMemorySettings(this.config, this.settingsOf(vpaId, container));
    } catch {
      return this.config; // unreachable: validateVpa bounds every setting as the model options do
    }
  }

  /** A container's own OOM bump, undefined when its VPA sets none. */
  private bumpOf(vpaId: string, container: string): OomBump | undefined {
    const { oomBumpUpRatio, oomMinBumpUpBytes } = this.settingsOf(vpaId, container);
    if (oomBumpUpRatio === undefined && oomMinBumpUpBytes === undefined) return undefined;
    return { ...(oomBumpUpRatio !== undefined ? { oomBumpUpRatio } : {}), ...(oomMinBumpUpBytes !== undefined ? { oomMinBumpUpBytes } : {}) };
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
    if (!tracked) {
      tracked = { state: new AggregateContainerState(this.configFor(vpaId, container), now) };
      const model = this.newModel();
      if (model) tracked.model = model;
      containers.set(container, tracked);
    }
    return tracked;
  }

  /** Installs a history restored from a checkpoint, with the strategy's model restored from its state when there is one. */
  restore(vpaId: string, container: string, state: AggregateContainerState, restored?: { model: UsageModel; through: ModelThrough }): void {
    if (!this.byVpa.has(vpaId)) this.byVpa.set(vpaId, new Map());
    state.config = this.configFor(vpaId, container);
    const tracked: TrackedContainer = { state };
    const model = restored?.model ?? this.newModel();
    if (model) tracked.model = model;
    if (restored) {
      tracked.modelResumeAfter = { ...restored.through };
      tracked.modelThrough = { ...restored.through };
    }
    if (state.lastSampleStart !== undefined) tracked.resumeAfter = state.lastSampleStart;
    this.byVpa.get(vpaId)!.set(container, tracked);
  }

  /**
   * Drops a VPA's histories and its pods' routes (a history read that failed half-way: the retry
   * reads it all again, so nothing of it may stay).
   */
  forget(vpaId: string): void {
    this.byVpa.delete(vpaId);
    this.policies.delete(vpaId);
    this.initContainers.retain((id) => id !== vpaId);
    for (const [pod, id] of this.podVpa) if (id === vpaId) this.podVpa.delete(pod);
  }

  private target(key: ContainerKey): TrackedContainer | undefined {
    const vpaId = this.podVpa.get(`${key.namespace}/${key.pod}`);
    if (vpaId === undefined) return undefined;
    return this.container(vpaId, key.container);
  }

  private vpaOf(key: ContainerKey): string | undefined {
    return this.podVpa.get(`${key.namespace}/${key.pod}`);
  }

  /** True for an ordinary init container of its VPA's pods. */
  private isInitContainer(key: ContainerKey): boolean {
    const vpaId = this.vpaOf(key);
    return vpaId !== undefined && this.initContainers.has(vpaId, key.container);
  }

  /** Counts and says so when `series` is an ordinary init container's (to be dropped). */
  private initSeries(series: ContainerSeries): boolean {
    if (!this.isInitContainer(series.key)) return false;
    this.initContainerSamples += series.times.length;
    return true;
  }

  cpu(input: ContainerSeries): void {
    if (this.initSeries(input)) return;
    const t = this.target(input.key);
    if (!t) return void (this.unrouted += input.times.length);
    const series = this.withoutBoostedStartup(input);
    for (let i = 0; i < series.times.length; i++) {
      const at = series.times[i]!;
      if (t.resumeAfter !== undefined && at <= t.resumeAfter) continue;
      t.state.addCpuSample(series.values[i]!, at, series.key.pod);
    }
    if (!t.model) return;
    const fresh = newerThan(series, t.modelResumeAfter?.cpu);
    if (fresh.times.length === 0) return;
    t.modelThrough = { cpu: Math.max(t.modelThrough?.cpu ?? -Infinity, fresh.times[fresh.times.length - 1]!), memory: t.modelThrough?.memory ?? -Infinity };
    if (this.buffer) this.buffer.cpu(t.model, fresh);
    else for (let i = 0; i < fresh.times.length; i++) t.model.addCpuSample(fresh.values[i]!, fresh.times[i]!, fresh.key.pod);
  }

  /**
   * The series without the samples from a start-up boost (routePods' `cpuSteadySince`): CPU used
   * with boosted CPU while starting is no measure of the steady need.
   */
  private withoutBoostedStartup(series: ContainerSeries): ContainerSeries {
    const pod = `${series.key.namespace}/${series.key.pod}`;
    const window = this.cpuBoostWindows.get(pod);
    if (window !== undefined && series.times.length > 0) {
      // The pod's first CPU sample (chunks come in time order): its start, unless the read began there.
      const first = series.times[0]!;
      this.cpuSteadyFrom.set(pod, first > window.startedBefore ? first + window.windowMs : Number.NEGATIVE_INFINITY);
      this.cpuBoostWindows.delete(pod);
    }
    const from = this.cpuSteadyFrom.get(pod);
    if (from === undefined || series.times.length === 0 || series.times[0]! >= from) return series;
    const keep = series.times.findIndex((at) => at >= from);
    const start = keep < 0 ? series.times.length : keep;
    this.boostedStartupSamples += start;
    return { ...series, times: series.times.slice(start), values: series.values.slice(start) };
  }

  memory(series: ContainerSeries): void {
    if (this.initSeries(series)) return;
    const t = this.target(series.key);
    if (!t) return void (this.unrouted += series.times.length);
    for (let i = 0; i < series.times.length; i++) {
      const at = series.times[i]!;
      if (t.resumeAfter !== undefined && at <= t.resumeAfter) continue;
      t.state.addMemorySample(series.values[i]!, at, series.key.pod);
    }
    const fresh = t.model ? newerThan(series, t.modelResumeAfter?.memory) : series;
    if (t.model && fresh.times.length > 0) {
      t.modelThrough = { cpu: t.modelThrough?.cpu ?? -Infinity, memory: Math.max(t.modelThrough?.memory ?? -Infinity, fresh.times[fresh.times.length - 1]!) };
      if (this.buffer) this.buffer.memory(t.model, fresh);
      else for (let i = 0; i < fresh.times.length; i++) t.model.addMemorySample(fresh.values[i]!, fresh.times[i]!, fresh.key.pod);
    }
    if (series.values.length > 0)
      this.lastMemory.set(`${series.key.namespace}/${series.key.pod}/${series.key.container}`, series.values[series.values.length - 1]!);
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
   * Records an OOM kill of a container: memory in use is the larger of its request at the kill and
   * its last sample (`requestBytes` overrides the remembered request). A kill reported again (see
   * SAME_OOM_KILL_MS) is dropped. The strategy's model gets every other kill; `fromHistory`
   * (Prometheus) kills join the time-ordered merge. The upstream state skips kills at or before its
   * restored checkpoint (in it already). Returns whether the upstream state recorded it (false for
   * an unrouted pod).
   */
  recordOom(key: ContainerKey, at: number, requestBytes?: number, fromHistory = false): boolean {
    if (this.isInitContainer(key)) return false;
    const t = this.target(key);
    if (!t) return false;
    const id = `${key.namespace}/${key.pod}/${key.container}`;
    const previous = this.lastOom.get(id);
    if (previous !== undefined && Math.abs(at - previous) <= SAME_OOM_KILL_MS) return false;
    this.lastOom.set(id, at);
    const used = Math.max(requestBytes ?? this.requestAt(id, at) ?? 0, this.lastMemory.get(id) ?? 0);
    // In a chunk (from Prometheus) the kill joins the merge; from pod status (between syncs) the
    // buffer is empty and the kill goes straight to the model.
    // A restored model has the kills up to its last memory sample in its state already.
    const inModel = t.modelResumeAfter !== undefined && at <= t.modelResumeAfter.memory;
    const bump = this.bumpOf(this.vpaOf(key)!, key.container);
    if (t.model && !inModel && this.buffer && fromHistory) this.buffer.oom(t.model, used, at, key.pod, bump);
    else if (!inModel) t.model?.recordOom(used, at, key.pod, bump);
    if (t.resumeAfter !== undefined && at <= t.resumeAfter) return false;
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
    for (const vpaId of this.policies.keys()) if (!handled.has(vpaId)) this.policies.delete(vpaId);
    this.initContainers.retain((vpaId) => handled.has(vpaId));
    for (const [id, at] of this.lastOom) if (at < now - SAME_OOM_KILL_MS) this.lastOom.delete(id);
  }

  /** Number of VPA x container histories held. */
  size(): number {
    let n = 0;
    for (const c of this.byVpa.values()) n += c.size;
    return n;
  }
}

/** The samples of `series` after `after` (all of them when undefined); series times are ascending. */
function newerThan(series: ContainerSeries, after: number | undefined): ContainerSeries {
  if (after === undefined || series.times.length === 0 || series.times[0]! > after) return series;
  const keep = series.times.findIndex((at) => at > after);
  if (keep < 0) return { ...series, times: series.times.slice(0, 0), values: series.values.slice(0, 0) };
  return { ...series, times: series.times.slice(keep), values: series.values.slice(keep) };
}
