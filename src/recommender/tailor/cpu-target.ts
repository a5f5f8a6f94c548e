/**
 * Tailor's CPU target for one container: the configured quantile (p90.2) of usage, from an
 * hour-of-day model or an all-hours model, whichever has predicted this container better lately
 * (running quantile loss); raised at once when the last 15 minutes (surgeWindowMs) show a sustained increase.
 * Figures behind each part: docs/tailor-strategy.md.
 */
import { exponentialHistogramOptions } from '../histogram-options.ts';
import { hourOfDay, HourOfDayHistograms } from './hour-of-day-histograms.ts';
import { PooledDecayingHistograms } from './pooled-decaying-histograms.ts';
import type { TailorOptions } from './options.ts';
import { RecentWindow } from './recent-window.ts';

const DAY = 86_400_000;
/** CPU buckets: first 1 millicore wide, each 2% wider, up to 1000 cores. */
const CPU_BUCKETS = exponentialHistogramOptions(1000, 0.001, 1.02, 1e-6);
/** The all-hours histogram's place in the pool (after the 24 hours'). */
const FLAT = 24;
/** The all-hours quantile is recomputed at most this often. */
const FLAT_REFRESH_MS = 10 * 60_000;

/**
 * Pinball (quantile) loss of predicting `p` when `u` happened: the loss a quantile-q prediction
 * minimises. Example q = 0.9: predicting 100m when 150m happened costs 0.9 x 50 = 45; predicting
 * 150m when 100m happened costs 0.1 x 50 = 5.
 */
export function quantileLoss(q: number, u: number, p: number): number {
  return u > p ? q * (u - p) : (1 - q) * (p - u);
}

export class CpuTarget {
  private readonly o: TailorOptions;
  private readonly seasonal: HourOfDayHistograms;
  /** Histograms 0-23: the hours' (seasonal); histogram FLAT: all hours. */
  private readonly histograms: PooledDecayingHistograms;
  /** The last surgeWindowMs of samples: its median and cpuQuantile drive the surge check. */
  private readonly recent: RecentWindow;
  private firstSampleAt = NaN;
  private lastSampleAt = NaN;
  private flatCached = 0;
  private flatCachedAt = -Infinity;
  private seasonalLoss = 0;
  private flatLoss = 0;

  constructor(options: TailorOptions) {
    this.o = options;
    this.histograms = new PooledDecayingHistograms([...Array<number>(24).fill(options.seasonalHalfLifeMs), options.flatHalfLifeMs], CPU_BUCKETS);
    this.seasonal = new HourOfDayHistograms(
      this.histograms,
      options.cpuQuantile,
      options.cpuReachFloor ? options.maxStepUp : Infinity,
    );
    this.recent = new RecentWindow(options.surgeWindowMs);
  }

  /** True once a sample was added. */
  get hasData(): boolean {
    return !Number.isNaN(this.lastSampleAt);
  }

  /**
   * A CPU sample (cores) at `at`; samples older than the last one are ignored (several at the same
   * time, e.g. from the pods of one workload, all count).
   */
  add(cores: number, at: number): void {
    if (!(cores >= 0) || !(at >= this.lastSampleAt || Number.isNaN(this.lastSampleAt))) return;
    if (Number.isNaN(this.lastSampleAt)) {
      this.firstSampleAt = at;
    } else {
      // Score both models on this sample before they learn from it.
      const decay = Math.exp(-(at - this.lastSampleAt) / this.o.lossTimeConstantMs);
      const q = this.o.cpuQuantile;
      this.seasonalLoss = this.seasonalLoss * decay + quantileLoss(q, cores, this.seasonal.reachable(hourOfDay(at), at));
      this.flatLoss = this.flatLoss * decay + quantileLoss(q, cores, this.flatQuantile(at));
    }
    this.lastSampleAt = at;
    this.seasonal.add(cores, at);
    this.histograms.add(FLAT, cores, at);
    this.recent.add(cores, at);
  }

  /** The CPU (cores) to hold from `now` until the next change may happen (`horizonMs`). */
  target(now: number): number {
    const o = this.o;
    let target: number;
    const seasonalReady = now - this.firstSampleAt >= DAY;
    if (o.cpuSeasonal && seasonalReady && this.seasonalLoss < this.flatLoss) {
      const h0 = hourOfDay(now);
      const h1 = hourOfDay(now + o.horizonMs - 1);
      target = Math.max(this.seasonal.reachable(h0, now), this.seasonal.reachable(h1, now));
    } else {
      target = this.flatQuantile(now);
    }
    // Sustained increase: the median of the last surgeWindowMs (15 min) above the target.
    if (o.cpuSurge && (this.recent.quantile(0.5) ?? 0) > target) target = Math.max(target, this.recent.quantile(o.cpuQuantile) ?? 0);
    return target;
  }

  private flatQuantile(now: number): number {
    if (now - this.flatCachedAt >= FLAT_REFRESH_MS) {
      this.flatCached = this.histograms.isEmpty(FLAT) ? 0 : this.histograms.percentile(FLAT, this.o.cpuQuantile);
      this.flatCachedAt = now;
    }
    return this.flatCached;
  }
}
