/**
 * CPU usage by hour of day (UTC): 24 decaying histograms, one per hour, so the quantile for 14:00
 * comes from past days' 14:00s only. A container with a daily cycle gets a narrow distribution per
 * hour instead of one wide one for the whole day. The 24 quantiles (their reachable versions, see
 * `reachable`) are recomputed at most every `refreshMs`, so asking every minute is cheap.
 */
import type { PooledDecayingHistograms } from './pooled-decaying-histograms.ts';
import { planDailyLevels } from './daily-plan.ts';

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
  /** The 24 planned levels (see `planned`) as of the last refresh; empty without a change cost. */
  private readonly plan: Float64Array;
  private readonly changeCostHours: number;
  private refreshedAt = -Infinity;
  private readonly q: number;
  private readonly maxStep: number;
  private readonly refreshMs: number;

  /**
   * `slots`: a pool whose histograms 0-23 are the hours' (it may hold more, e.g. an all-hours one);
   * `maxStep`: the largest factor of one change (the updater's step limit up); Infinity: no reach;
   * `changeCostHours`: what one change costs, in hours of the day's mean need (0: no plan, see `planned`).
   */
  constructor(slots: PooledDecayingHistograms, q: number, maxStep: number, refreshMs = 10 * 60_000, changeCostHours = 0) {
    if (slots.count < 24) throw new RangeError(`the pool holds ${slots.count} histograms, 24 needed`);
    this.slots = slots;
    this.q = q;
    this.maxStep = maxStep;
    this.refreshMs = refreshMs;
    this.changeCostHours = changeCostHours;
    this.plan = new Float64Array(changeCostHours > 0 ? 24 : 0);
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

  /**
   * The level planned for hour `hour`: the reachable quantiles cut into a few constant stretches
   * that pay for their changes ({@link planDailyLevels}, a change costing `changeCostHours` of
   * the day's mean need), made reachable again. Without a change cost, `reachable`.
   */
  planned(hour: number, now: number): number {
    if (this.plan.length === 0) return this.reachable(hour, now);
    this.refresh(now);
    return this.plan[hour] ?? 0;
  }

  private refresh(now: number): void {
    if (now - this.refreshedAt < this.refreshMs) return;
    this.refreshedAt = now;
    const quantiles = scratch;
    for (let h = 0; h < 24; h++) quantiles[h] = this.slots.isEmpty(h) ? 0 : this.slots.percentile(h, this.q);
    this.reach(quantiles, this.reachables);
    if (this.plan.length === 0) return;
    let mean = 0;
    for (let h = 0; h < 24; h++) mean += this.reachables[h]! / 24;
    planDailyLevels(this.reachables, this.changeCostHours * mean, quantiles);
    this.reach(quantiles, this.plan);
  }

  /** out[h] = max over k of levels[h + k] / maxStep^k (hours wrap around the day). */
  private reach(levels: Float64Array, out: Float64Array): void {
    for (let h = 0; h < 24; h++) {
      let best = 0;
      let divisor = 1;
      for (let k = 0; k < 24 && divisor < Infinity; k++, divisor *= this.maxStep) best = Math.max(best, levels[(h + k) % 24]! / divisor);
      out[h] = best;
    }
  }
}
