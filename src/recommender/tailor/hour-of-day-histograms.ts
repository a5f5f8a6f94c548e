/**
 * CPU usage by hour of day (UTC): 24 decaying histograms, one per hour, so the quantile for 14:00
 * comes from past days' 14:00s only. A container with a daily cycle gets a narrow distribution per
 * hour instead of one wide one for the whole day. The 24 quantiles (their reachable versions, see
 * `reachable`) are recomputed at most every `refreshMs`, so asking every minute is cheap.
 */
import type { PooledDecayingHistograms } from './pooled-decaying-histograms.ts';

const HOUR = 3_600_000;

/** The hour of day (0-23, UTC) of `at` (ms). */
export function hourOfDay(at: number): number {
  return Math.floor(at / HOUR) % 24;
}

/** The 24 hourly quantiles while a refresh raises them; shared by every model (JS runs one at a time). */
const scratch = new Float64Array(24);

export class HourOfDayHistograms {
  private readonly slots: PooledDecayingHistograms;
  /** The 24 reachable quantiles as of the last refresh. */
  private readonly reachables = new Float64Array(24);
  private refreshedAt = -Infinity;
  private readonly q: number;
  private readonly maxStep: number;
  private readonly refreshMs: number;

  /**
   * `slots`: a pool whose histograms 0-23 are the hours' (it may hold more, e.g. an all-hours one);
   * `maxStep`: the largest factor of one change (the updater's step limit up); Infinity: no reach.
   */
  constructor(slots: PooledDecayingHistograms, q: number, maxStep: number, refreshMs = 10 * 60_000) {
    if (slots.count < 24) throw new RangeError(`the pool holds ${slots.count} histograms, 24 needed`);
    this.slots = slots;
    this.q = q;
    this.maxStep = maxStep;
    this.refreshMs = refreshMs;
  }

  add(cores: number, at: number): void {
    this.slots.add(hourOfDay(at), cores, at);
  }

  /**
   * The quantile of hour `hour` (0 when that hour has no sample yet), raised so that every later hour stays reachable when each change
   * may multiply the request by at most `maxStep`: max over k >= 0 of quantile(hour + k) / maxStep^k.
   * Example with maxStep 2: a daily job needing 2,400m at 03:00 and 20m otherwise gives 1,200m at
   * 02:00, 600m at 01:00, ... and 20m from 19:00 to 21:00 (2,400 / 2^7 = 19m).
   */
  reachable(hour: number, now: number): number {
    this.refresh(now);
    return this.reachables[hour] ?? 0;
  }

  private refresh(now: number): void {
    if (now - this.refreshedAt < this.refreshMs) return;
    this.refreshedAt = now;
    const quantiles = scratch;
    for (let h = 0; h < 24; h++) quantiles[h] = this.slots.isEmpty(h) ? 0 : this.slots.percentile(h, this.q);
    for (let h = 0; h < 24; h++) {
      let best = 0;
      let divisor = 1;
      for (let k = 0; k < 24 && divisor < Infinity; k++, divisor *= this.maxStep) best = Math.max(best, quantiles[(h + k) % 24]! / divisor);
      this.reachables[h] = best;
    }
  }
}
