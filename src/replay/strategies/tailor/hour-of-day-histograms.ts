/**
 * CPU usage by hour of day (UTC): 24 decaying histograms, one per hour, so the quantile for 14:00
 * comes from past days' 14:00s only. A container with a daily cycle gets a narrow distribution per
 * hour instead of one wide one for the whole day. Quantiles are cached per hour and refreshed at
 * most every `refreshMs`, so asking often is cheap.
 */
import { DecayingHistogram } from '../../../recommender/decaying-histogram.ts';
import type { HistogramOptions } from '../../../recommender/histogram-options.ts';

const HOUR = 3_600_000;

/** The hour of day (0-23, UTC) of `at` (ms). */
export function hourOfDay(at: number): number {
  return Math.floor(at / HOUR) % 24;
}

export class HourOfDayHistograms {
  private readonly slots: DecayingHistogram[];
  private readonly cached = new Float64Array(24);
  private readonly cachedAt = new Float64Array(24).fill(-Infinity);
  private readonly q: number;
  private readonly refreshMs: number;

  constructor(buckets: HistogramOptions, halfLifeMs: number, q: number, refreshMs = 10 * 60_000) {
    this.slots = Array.from({ length: 24 }, () => new DecayingHistogram(buckets, halfLifeMs));
    this.q = q;
    this.refreshMs = refreshMs;
  }

  add(cores: number, at: number): void {
    this.slots[hourOfDay(at)]?.addSample(cores, 1, at);
  }

  /** The largest of the 24 hourly quantiles as of `now`. */
  peakQuantile(now: number): number {
    let best = 0;
    for (let h = 0; h < 24; h++) best = Math.max(best, this.quantile(h, now));
    return best;
  }

  /** The quantile of hour `hour` as of `now` (0 when that hour has no sample yet). */
  quantile(hour: number, now: number): number {
    if (now - (this.cachedAt[hour] ?? -Infinity) >= this.refreshMs) {
      const slot = this.slots[hour];
      this.cached[hour] = slot === undefined || slot.isEmpty() ? 0 : slot.percentile(this.q);
      this.cachedAt[hour] = now;
    }
    return this.cached[hour] ?? 0;
  }
}
