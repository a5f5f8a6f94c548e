/**
 * The usage history of one container (by name) of a workload, aggregated over its pods: a decaying
 * histogram of CPU usage samples, a decaying histogram of memory interval peaks, and the first/last
 * CPU sample times and the CPU sample count that drive the confidence of the estimate.
 *
 * Samples may carry an `instance` key (e.g. the pod name). As upstream, each instance keeps its own
 * memory interval and its own CPU de-duplication, so N pods contribute N peaks per interval. Without
 * a key all samples belong to one instance. Instance state is small (5 numbers) and is not part of
 * checkpoints (upstream does not checkpoint it either).
 */
import { DecayingHistogram } from './decaying-histogram.ts';
import { ContainerInstanceState, addMemoryPeakSample, recordOomSample } from './memory-peaks.ts';
import type { ModelConfig } from './model-config.ts';
import type { OomBump } from './types.ts';
import { toResourceAmount } from './resource-amount.ts';

export class AggregateContainerState {
  /** CPU usage in cores. */
  readonly cpu: DecayingHistogram;
  /** Memory interval peaks in bytes. */
  readonly memoryPeaks: DecayingHistogram;
  /** Time of the earliest CPU sample (ms), undefined before any. */
  firstSampleStart: number | undefined = undefined;
  /** Time of the latest CPU sample (ms), undefined before any. */
  lastSampleStart: number | undefined = undefined;
  /** Number of CPU samples aggregated (memory samples do not count, as upstream). */
  totalSamplesCount = 0;
  /**
   * Number of OOM kills recorded (accepted by the age cut-off). Not checkpointed (upstream's format
   * has no such field); it lets a container killed before its first usage sample get an estimate
   * (estimator.ts, decision 0298).
   */
  oomKillCount = 0;

  private defaultInstance: ContainerInstanceState | undefined;
  private instances: Map<string, ContainerInstanceState> | undefined;

  constructor(
    /**
     * The model's settings; may be replaced by one with the same buckets (`withMemorySettings`:
     * a VPA's own OOM bump and memory aggregation, applied from then on, as upstream's
     * `UpdateFromPolicy`).
     */
    public config: ModelConfig,
    /** When the state was created (ms); only used to expire a state that never got a sample. */
    readonly createdAt?: number,
  ) {
    const o = config.options;
    this.cpu = new DecayingHistogram(config.cpuBuckets, o.cpuHalfLifeMs, o.maxDecayExponent);
    this.memoryPeaks = new DecayingHistogram(config.memoryBuckets, o.memoryHalfLifeMs, o.maxDecayExponent);
  }

  /**
   * A CPU usage sample of `cores` at `at`, weighted `cpuSampleWeight` (0.1), truncated to whole
   * millicores first as upstream does. Returns false for a negative or non-finite value, or a
   * sample not newer than the instance's previous one.
   */
  addCpuSample(cores: number, at: number, instance?: string): boolean {
    if (!(cores >= 0) || cores === Infinity || !Number.isFinite(at)) return false;
    const state = this.instance(instance);
    if (!(at > state.lastCpuSampleStart)) return false;
    state.lastCpuSampleStart = at;
    // Whole millicores, as upstream's history provider feeds Prometheus samples (CPUAmountFromCores
    // truncates): 0.0009 cores counts as 0, 0.0259 as 25m.
    const millicores = toResourceAmount(cores * 1000, this.config.options.maxResourceAmount);
    this.cpu.addSample(millicores / 1000, this.config.options.cpuSampleWeight, at);
    if (this.lastSampleStart === undefined || at > this.lastSampleStart) this.lastSampleStart = at;
    if (this.firstSampleStart === undefined || at < this.firstSampleStart) this.firstSampleStart = at;
    this.totalSamplesCount++;
    return true;
  }

  /**
   * A memory working-set sample of `bytes` (truncated to whole bytes, as upstream) at `at`; feeds
   * the interval peak (see memory-peaks.ts).
   */
  addMemorySample(bytes: number, at: number, instance?: string): boolean {
    return addMemoryPeakSample(this.instance(instance), this.memoryPeaks, wholeBytes(bytes), at, false, this.config.options.memoryAggregationIntervalMs);
  }

  /** An OOM kill at `at` with `memoryUsedBytes` in use (request or observed peak, whichever is larger); `bump` overrides the config's. */
  recordOom(memoryUsedBytes: number, at: number, instance?: string, bump?: OomBump): boolean {
    const options = bump ? { ...this.config.options, ...definedOnly(bump) } : this.config.options;
    const recorded = recordOomSample(this.instance(instance), this.memoryPeaks, wholeBytes(memoryUsedBytes), at, options);
    if (recorded) this.oomKillCount++;
    return recorded;
  }

  /** Drops the per-instance state of a pod that is gone (its samples stay in the histograms). */
  forgetInstance(instance: string): void {
    this.instances?.delete(instance);
  }

  /** Adds another state's histograms, sample and OOM kill counts and time span into this one. */
  merge(other: AggregateContainerState): void {
    this.cpu.merge(other.cpu);
    this.memoryPeaks.merge(other.memoryPeaks);
    if (other.firstSampleStart !== undefined && (this.firstSampleStart === undefined || other.firstSampleStart < this.firstSampleStart)) {
      this.firstSampleStart = other.firstSampleStart;
    }
    if (other.lastSampleStart !== undefined && (this.lastSampleStart === undefined || other.lastSampleStart > this.lastSampleStart)) {
      this.lastSampleStart = other.lastSampleStart;
    }
    this.totalSamplesCount += other.totalSamplesCount;
    this.oomKillCount += other.oomKillCount;
  }

  /**
   * True when the state saw no CPU sample for the whole memory window (8 x 24h by default), or, if it
   * never saw one, when it was created that long ago. Expired states can be garbage-collected.
   */
  isExpired(now: number): boolean {
    const o = this.config.options;
    const window = o.memoryAggregationIntervalMs * o.memoryAggregationIntervalCount;
    const since = this.totalSamplesCount === 0 ? this.createdAt : this.lastSampleStart;
    return since !== undefined && now - since >= window;
  }

  private instance(key: string | undefined): ContainerInstanceState {
    if (key === undefined || key === '') return (this.defaultInstance ??= new ContainerInstanceState());
    this.instances ??= new Map();
    let state = this.instances.get(key);
    if (state === undefined) {
      state = new ContainerInstanceState();
      this.instances.set(key, state);
    }
    return state;
  }
}

/** The bump's values that are set (an absent one keeps the config's). */
function definedOnly(bump: OomBump): OomBump {
  const out: OomBump = {};
  if (bump.oomBumpUpRatio !== undefined) out.oomBumpUpRatio = bump.oomBumpUpRatio;
  if (bump.oomMinBumpUpBytes !== undefined) out.oomMinBumpUpBytes = bump.oomMinBumpUpBytes;
  return out;
}

/** Whole bytes (truncated) for a valid amount; anything else unchanged, for the callee to refuse. */
function wholeBytes(bytes: number): number {
  return Number.isFinite(bytes) && bytes >= 0 ? Math.floor(bytes) : bytes;
}
