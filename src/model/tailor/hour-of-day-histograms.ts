/**
 * CPU usage by hour of day (UTC): 24 decaying histograms, one per hour, so the quantile for 14:00
 * comes from past days' 14:00s only. A container with a daily cycle gets a narrow distribution per
 * hour instead of one wide one for the whole day. The 24 quantiles are recomputed at most every
 * `refreshMs` and kept in the pool (no array per container); their reachable versions (see
 * `reachable`) are derived when asked, so asking every minute is cheap.
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
const reachScratch = new Float64Array(24);
/**
 * The 24 planned levels (see `planned`) of the model asked last, as of its last refresh. A plan is
 * a function of the quantiles cached in the pool, so it is derived when a model asks for it rather
 * than kept per model (a Float64Array of 24 costs ~380 bytes a container; decision 0276): in the
 * replay one model asks many times in a row, in the controller each model once per cycle.
 */
const planCache = new Float64Array(24);
/** Whose plan `planCache` holds: the model's pool of histograms (one per model) and its last refresh. */
let planOwner: PooledDecayingHistograms | undefined;
let planRefreshedAt = NaN;

/** The settings of an {@link HourOfDayHistograms} (see its constructor). */
interface HourOfDaySettings {
  readonly q: number;
  readonly maxStep: number;
  readonly refreshMs: number;
  readonly changeCostHours: number;
  readonly changeCostAbs: number;
}

/**
 * One settings object for every HourOfDayHistograms with the same settings (a CPU model has one
 * per container otherwise: five fields, the quantile a 16-byte boxed number; decision 0275).
 */
const sharedSettings = new Map<string, HourOfDaySettings>();
function settingsFor(q: number, maxStep: number, refreshMs: number, changeCostHours: number, changeCostAbs: number): HourOfDaySettings {
  const key = `${q},${maxStep},${refreshMs},${changeCostHours},${changeCostAbs}`;
  let settings = sharedSettings.get(key);
  if (settings === undefined) sharedSettings.set(key, (settings = Object.freeze({ q, maxStep, refreshMs, changeCostHours, changeCostAbs })));
  return settings;
}

export class HourOfDayHistograms {
  private readonly slots: PooledDecayingHistograms;
  /** Settings, shared (`o`: not state, model-state.ts skips it). */
  private readonly o: HourOfDaySettings;
  private refreshedAt = -Infinity;
  /** The largest of the 24 quantiles as of the last refresh. */
  private largest = 0;

  /**
   * `slots`: a pool whose histograms 0-23 are the hours' (it may hold more, e.g. an all-hours one);
   * `maxStep`: the largest factor of one change (the updater's step limit up); Infinity: no reach;
   * `changeCostHours`: what one change costs, in hours of the day's mean need; `changeCostAbs`: in
   * the unit of the samples x hours (core-hours), added to it (both 0: no plan, see `planned`).
   */
  constructor(slots: PooledDecayingHistograms, q: number, maxStep: number, refreshMs = 10 * 60_000, changeCostHours = 0, changeCostAbs = 0) {
    if (slots.count < 24) throw new RangeError(`the pool holds ${slots.count} histograms, 24 needed`);
    this.slots = slots;
    this.o = settingsFor(q, maxStep, refreshMs, changeCostHours, changeCostAbs);
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
    const slots = this.slots;
    let best = 0;
    let divisor = 1;
    // Hours further ahead count divided by more: once the largest quantile so divided cannot beat
    // the best, none of them can (the answer is the same as with all 24 terms).
    for (let k = 0; k < 24 && divisor < Infinity && this.largest / divisor > best; k++, divisor *= this.o.maxStep)
      best = Math.max(best, slots.cachedPercentile((hour + k) % 24) / divisor);
    return best;
  }

  /**
   * The level planned for hour `hour`: the reachable quantiles cut into a few constant stretches
   * that pay for their changes ({@link planDailyLevels}, a change costing `changeCostHours` of
   * the day's mean need plus `changeCostAbs`), made reachable again. Without a change cost, `reachable`.
   */
  planned(hour: number, now: number): number {
    if (!(this.o.changeCostHours > 0 || this.o.changeCostAbs > 0)) return this.reachable(hour, now);
    this.refresh(now);
    if (planOwner !== this.slots || planRefreshedAt !== this.refreshedAt) {
      this.plan(now, planCache);
      planOwner = this.slots;
      planRefreshedAt = this.refreshedAt;
    }
    return planCache[hour] ?? 0;
  }

  private refresh(now: number): void {
    if (now - this.refreshedAt < this.o.refreshMs) return;
    this.refreshedAt = now;
    // The quantiles stay in the pool; reachable() raises them when asked (24 steps at most).
    let largest = 0;
    for (let h = 0; h < 24; h++) {
      this.slots.cachePercentile(h, this.o.q);
      largest = Math.max(largest, this.slots.cachedPercentile(h));
    }
    this.largest = largest;
  }

  /** The 24 planned levels from the quantiles of the last refresh (at `now` or just before), into `out`. */
  private plan(now: number, out: Float64Array): void {
    const reachables = reachScratch;
    for (let h = 0; h < 24; h++) reachables[h] = this.reachable(h, now);
    let mean = 0;
    for (let h = 0; h < 24; h++) mean += reachables[h]! / 24;
    const quantiles = scratch;
    planDailyLevels(reachables, this.o.changeCostHours * mean + this.o.changeCostAbs, quantiles);
    this.reach(quantiles, out);
  }

  /** out[h] = max over k of levels[h + k] / maxStep^k (hours wrap around the day). */
  private reach(levels: Float64Array, out: Float64Array): void {
    for (let h = 0; h < 24; h++) {
      let best = 0;
      let divisor = 1;
      for (let k = 0; k < 24 && divisor < Infinity; k++, divisor *= this.o.maxStep) best = Math.max(best, levels[(h + k) % 24]! / divisor);
      out[h] = best;
    }
  }
}
