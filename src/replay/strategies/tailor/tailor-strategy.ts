/**
 * The `tailor` strategy. CPU: the same quantile for every container (no multiplicative margin),
 * taken either from an hour-of-day model or from an all-hours model, whichever has predicted this
 * container better lately (running quantile loss), raised at once when the recent level shows a
 * sustained increase. Memory: the highest hourly peak of the last 7 days plus a margin, raised
 * after an OOM kill. Bounds are tight for increases and loose for decreases, so the updater
 * raises requests soon and lowers them only when it pays.
 * Why each part is there, with figures: docs/tailor-strategy.md.
 */
import type { ResourceEstimate, Strategy, UsageModel } from '../../../recommender/types.ts';
import { DecayingHistogram } from '../../../recommender/decaying-histogram.ts';
import { exponentialHistogramOptions } from '../../../recommender/histogram-options.ts';
import { SlidingQuantile } from '../../sliding-quantile.ts';
import { HourlyPeaks } from './hourly-peaks.ts';
import { hourOfDay, HourOfDayHistograms } from './hour-of-day-histograms.ts';
import { TAILOR_DEFAULTS, type TailorOptions } from './options.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** CPU buckets: first 1 millicore wide, each 2% wider, up to 1000 cores. */
const CPU_BUCKETS = exponentialHistogramOptions(1000, 0.001, 1.02, 1e-6);

/** Pinball (quantile) loss of predicting `p` when `u` happened. */
function quantileLoss(q: number, u: number, p: number): number {
  return u > p ? q * (u - p) : (1 - q) * (p - u);
}

export class TailorModel implements UsageModel {
  private readonly o: TailorOptions;
  private readonly seasonal: HourOfDayHistograms;
  private readonly flat: DecayingHistogram;
  private readonly recentMedian: SlidingQuantile;
  private readonly recentHigh: SlidingQuantile;
  private readonly memoryPeaks: HourlyPeaks;
  private firstSampleAt = NaN;
  private lastSampleAt = NaN;
  private flatCached = 0;
  private flatCachedAt = -Infinity;
  /** Running quantile losses of the two CPU models. */
  private seasonalLoss = 0;
  private flatLoss = 0;
  private memoryHour = -1;
  private seasonalMissAt = -Infinity;
  private recentMissAt = -Infinity;
  private readonly aheadHours: number;
  private readonly recentHours: number;
  private readonly followHours: number;
  private oomFloor = 0;
  private oomFloorUntil = -Infinity;
  private readonly result: ResourceEstimate = {
    target: { cpu: 0, memory: 0 },
    lowerBound: { cpu: 0, memory: 0 },
    upperBound: { cpu: 0, memory: 0 },
  };

  constructor(options: TailorOptions) {
    this.o = options;
    this.seasonal = new HourOfDayHistograms(
      CPU_BUCKETS,
      options.seasonalHalfLifeMs,
      options.cpuQuantile,
      options.cpuReachFloor ? options.maxStepUp : Infinity,
    );
    this.flat = new DecayingHistogram(CPU_BUCKETS, options.flatHalfLifeMs);
    this.recentMedian = new SlidingQuantile(0.5, options.surgeWindowMs);
    this.recentHigh = new SlidingQuantile(options.cpuQuantile, options.surgeWindowMs);
    this.memoryPeaks = new HourlyPeaks(options.memoryHistoryMs);
    this.aheadHours = Math.ceil(options.horizonMs / HOUR);
    this.recentHours = Math.ceil(options.memoryRecentMs / HOUR);
    this.followHours = Math.ceil(options.memoryFollowMs / HOUR);
  }

  addCpuSample(cores: number, at: number): void {
    if (!(cores >= 0) || !(at > this.lastSampleAt || Number.isNaN(this.lastSampleAt))) return;
    // Score both models on this sample before learning from it.
    if (!Number.isNaN(this.lastSampleAt)) {
      const decay = Math.exp(-(at - this.lastSampleAt) / this.o.lossTimeConstantMs);
      const q = this.o.cpuQuantile;
      this.seasonalLoss = this.seasonalLoss * decay + quantileLoss(q, cores, this.seasonalAt(hourOfDay(at), at));
      this.flatLoss = this.flatLoss * decay + quantileLoss(q, cores, this.flatQuantile(at));
    } else {
      this.firstSampleAt = at;
    }
    this.lastSampleAt = at;
    this.seasonal.add(cores, at);
    this.flat.addSample(cores, 1, at);
    this.recentMedian.add(cores, at);
    this.recentHigh.add(cores, at);
  }

  addMemorySample(bytes: number, at: number): void {
    if (!(bytes >= 0)) return;
    const hour = Math.floor(at / HOUR);
    if (hour !== this.memoryHour && this.memoryHour >= 0) this.checkMemoryRules(this.memoryHour, at);
    this.memoryHour = hour;
    this.memoryPeaks.add(bytes, at);
  }

  /**
   * After hour `hour` ended: would the recent-hours rule and the hour-of-day rule have covered it
   * (its peak under the limit each would have set)? A miss suspends that rule.
   */
  private checkMemoryRules(hour: number, now: number): void {
    const o = this.o;
    if (hour * HOUR - this.firstSampleAt < o.memorySeasonalAfterMs) return;
    const actual = this.memoryPeaks.peakOfHour(hour);
    const seasonal = this.memoryPeaks.predictionFor(hour, this.aheadHours, this.recentHours);
    if (actual > seasonal * (1 + o.memoryMargin)) this.seasonalMissAt = now;
    const recent = this.memoryPeaks.recentMax(hour - 1, this.followHours);
    if (actual > recent * (1 + o.memoryMargin)) this.recentMissAt = now;
  }

  /** True when a memory rule has been checked for the trust period without a miss. */
  private trusted(missAt: number, now: number, trustMs: number): boolean {
    const o = this.o;
    return o.memorySeasonal && now - Math.max(missAt, this.firstSampleAt + o.memorySeasonalAfterMs) >= trustMs;
  }

  recordOom(memoryUsedBytes: number, at: number): void {
    // The container wanted more than its limit, by an unknown amount: hold at least limit x 1.5
    // for a day; by then the real peak (now below the raised limit) is in the history.
    const held = at < this.oomFloorUntil ? this.oomFloor : 0;
    this.oomFloor = Math.max(held, memoryUsedBytes * this.o.oomBumpFactor);
    this.oomFloorUntil = at + this.o.oomHoldMs;
  }

  estimate(now: number): ResourceEstimate | undefined {
    if (Number.isNaN(this.lastSampleAt)) return undefined;
    const o = this.o;
    const cpuCores = this.cpuTarget(now);
    const cpu = Math.max(o.minCpuMillicores, cpuCores * 1000);
    // The tightest memory rule that has earned trust: recent hours, hour of day, whole history.
    let peak: number;
    if (this.trusted(this.recentMissAt, now, o.memoryFollowTrustMs)) peak = this.memoryPeaks.recentMax(Math.floor(now / HOUR), this.followHours);
    else if (this.trusted(this.seasonalMissAt, now, o.memorySeasonalTrustMs)) peak = this.memoryPeaks.seasonalMax(now, this.aheadHours, this.recentHours);
    else peak = this.memoryPeaks.max(now);
    if (now < this.oomFloorUntil && this.oomFloor > peak) peak = this.oomFloor;
    const memory = Math.max(o.minMemoryBytes, peak * (1 + o.memoryMargin));
    const r = this.result;
    r.target.cpu = cpu;
    r.target.memory = memory;
    r.lowerBound.cpu = cpu * o.cpuLowerFactor;
    r.upperBound.cpu = cpu * o.cpuUpperFactor;
    r.lowerBound.memory = memory * o.memoryLowerFactor;
    // Before a day of history, memory only goes up: the day's peak may still be to come.
    r.upperBound.memory = now - this.firstSampleAt < o.memoryLearnMs ? Infinity : memory * o.memoryUpperFactor;
    return r;
  }

  /** The CPU (cores) to hold from `now` until the next change may happen (`horizonMs`). */
  private cpuTarget(now: number): number {
    const o = this.o;
    let target: number;
    const seasonalReady = now - this.firstSampleAt >= DAY;
    if (o.cpuSeasonal && seasonalReady && this.seasonalLoss < this.flatLoss) {
      const h0 = hourOfDay(now);
      const h1 = hourOfDay(now + o.horizonMs - 1);
      target = Math.max(this.seasonalAt(h0, now), this.seasonalAt(h1, now));
    } else {
      target = this.flatQuantile(now);
    }
    // Sustained increase: half of the last 30 minutes above the target.
    const median = this.recentMedian.value() ?? 0;
    if (o.cpuSurge && median > target) target = Math.max(target, this.recentHigh.value() ?? 0);
    return target;
  }

  /** The hour-of-day quantile, raised so the updater's step limit can follow the coming hours. */
  private seasonalAt(hour: number, now: number): number {
    return this.seasonal.reachable(hour, now);
  }

  private flatQuantile(now: number): number {
    if (now - this.flatCachedAt >= 10 * 60_000) {
      this.flatCached = this.flat.isEmpty() ? 0 : this.flat.percentile(this.o.cpuQuantile);
      this.flatCachedAt = now;
    }
    return this.flatCached;
  }
}

/** The `tailor` strategy; `overrides` change any default of {@link TailorOptions}. */
export function tailorStrategy(overrides: Partial<TailorOptions> = {}, name = 'tailor'): Strategy {
  const options: TailorOptions = { ...TAILOR_DEFAULTS, ...overrides };
  return {
    name,
    description: 'Tailor: one CPU quantile from an hour-of-day or all-hours model (whichever predicts better), memory peak of 7 days + 10%, fast OOM reaction',
    newModel: () => new TailorModel(options),
  };
}
