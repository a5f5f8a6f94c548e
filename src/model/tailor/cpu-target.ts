/**
 * Tailor's CPU target for one container: the configured quantile (p90.2) of usage, from an
 * hour-of-day model or an all-hours model, whichever has predicted this container better lately
 * (running quantile loss); raised at once when the last 30 minutes (surgeWindowMs) show a sustained increase.
 * Figures behind each part: docs/tailor-strategy.md.
 */
import { exponentialHistogramOptions } from '../histogram-options.ts';
import { hourOfDay, HourOfDayHistograms } from './hour-of-day-histograms.ts';
import { PooledDecayingHistograms } from './pooled-decaying-histograms.ts';
import type { TailorSettings } from './experiments.ts';
import { RecentWindow } from './recent-window.ts';
import { ModelChangeCost } from './model-change-cost.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** CPU buckets: first 1 millicore wide, each 2% wider, up to 1000 cores. */
const CPU_BUCKETS = exponentialHistogramOptions(1000, 0.001, 1.02, 1e-6);
/** The all-hours histograms' place in the pool (after the 24 hours'): the default one, then the alternatives. */
const FLAT = 24;
/** The all-hours quantile is recomputed at most this often. */
const FLAT_REFRESH_MS = 10 * 60_000;

/**
 * The state lies in one array of doubles, `CpuTarget.s`, rather than in fields and small arrays (V8
 * keeps a field holding NaN, -Infinity or a fraction as a 16-byte heap number of its own, and an
 * array costs 48 bytes besides its numbers; decision 0275). The class reads and writes it by name,
 * through the accessors below (on the prototype: they cost no bytes per model). The places: first
 * sample, last sample, when the candidates' quantiles were computed, the hour-of-day loss, the held
 * surge level and until when; then per all-hours candidate k its quantile at CANDIDATES + 2k and
 * its running loss at CANDIDATES + 2k + 1.
 */
const CANDIDATES = 6;

/**
 * Pinball (quantile) loss of predicting `p` when `u` happened: the loss a quantile-q prediction
 * minimises. Example q = 0.9: predicting 100m when 150m happened costs 0.9 x 50 = 45; predicting
 * 150m when 100m happened costs 0.1 x 50 = 5.
 */
export function quantileLoss(q: number, u: number, p: number): number {
  return u > p ? q * (u - p) : (1 - q) * (p - u);
}

export class CpuTarget {
  private readonly o: TailorSettings;
  private readonly seasonal: HourOfDayHistograms;
  /** Histograms 0-23: the hours' (seasonal); histogram FLAT: all hours. */
  private readonly histograms: PooledDecayingHistograms;
  /** The last surgeWindowMs of samples: its median and cpuQuantile drive the surge check. */
  private readonly recent: RecentWindow;
  /**
   * The state, read and written through the accessors below. The all-hours candidates: half-life flatHalfLifeMs, then each
   * of flatAltHalfLivesMs, each at cpuQuantile, then at each of cpuQuantileCandidates (candidate k
   * reads histogram FLAT + k % flatCount at quantile number floor(k / flatCount)). A plain array:
   * a few numbers do not pay for a typed array's ~180 bytes of engine objects.
   */
  private readonly s: number[];
  /** With cpuModelChangePriceCoreHours: what each model's changes cost (predictor 0: hour of day, 1...: the all-hours candidates). */
  private readonly changeCost: ModelChangeCost | undefined;

  constructor(options: TailorSettings) {
    this.o = options;
    const flats = [options.flatHalfLifeMs, ...options.flatAltHalfLivesMs];
    this.histograms = new PooledDecayingHistograms([...Array<number>(24).fill(options.seasonalHalfLifeMs), ...flats], CPU_BUCKETS);
    const candidates = flats.length * (1 + options.cpuQuantileCandidates.length);
    this.s = new Array<number>(CANDIDATES + 2 * candidates).fill(0);
    this.firstSampleAt = NaN;
    this.lastSampleAt = NaN;
    this.flatCachedAt = -Infinity;
    this.surgeHeldUntil = -Infinity;
    this.seasonal = new HourOfDayHistograms(
      this.histograms,
      options.cpuQuantile,
      options.cpuReachFloor ? options.updater.maxStepUpFactor : Infinity,
      undefined,
      options.cpuChangeCostHours,
      options.cpuChangeCostCoreHours,
    );
    this.recent = new RecentWindow(options.surgeWindowMs);
    if (options.cpuModelChangePriceCoreHours > 0) this.changeCost = new ModelChangeCost(1 + candidates);
  }

  /** When the first sample came (NaN before it). */
  private get firstSampleAt(): number {
    return this.s[0]!;
  }
  private set firstSampleAt(at: number) {
    this.s[0] = at;
  }

  /** When the last sample came (NaN before the first). */
  private get lastSampleAt(): number {
    return this.s[1]!;
  }
  private set lastSampleAt(at: number) {
    this.s[1] = at;
  }

  /** When the all-hours candidates' quantiles were last computed (-Infinity: never). */
  private get flatCachedAt(): number {
    return this.s[2]!;
  }
  private set flatCachedAt(at: number) {
    this.s[2] = at;
  }

  /** The hour-of-day model's running loss. */
  private get seasonalLoss(): number {
    return this.s[3]!;
  }
  private set seasonalLoss(loss: number) {
    this.s[3] = loss;
  }

  /** With cpuSurgeHoldMs: the highest surge level seen at an estimate, held until surgeHeldUntil. */
  private get surgeHeld(): number {
    return this.s[4]!;
  }
  private set surgeHeld(level: number) {
    this.s[4] = level;
  }

  private get surgeHeldUntil(): number {
    return this.s[5]!;
  }
  private set surgeHeldUntil(at: number) {
    this.s[5] = at;
  }

  /** All-hours candidate `k`'s quantile, as last computed (refreshFlat). */
  private candidateQuantile(k: number): number {
    return this.s[CANDIDATES + 2 * k]!;
  }

  private setCandidateQuantile(k: number, quantile: number): void {
    this.s[CANDIDATES + 2 * k] = quantile;
  }

  /** All-hours candidate `k`'s running loss. */
  private loss(k: number): number {
    return this.s[CANDIDATES + 2 * k + 1]!;
  }

  private setLoss(k: number, loss: number): void {
    this.s[CANDIDATES + 2 * k + 1] = loss;
  }

  /** How many all-hours histograms (settings, not state). */
  private get flatCount(): number {
    return 1 + this.o.flatAltHalfLivesMs.length;
  }

  /** How many all-hours candidates (histograms x quantiles). */
  private get candidates(): number {
    return (this.s.length - CANDIDATES) / 2;
  }

  /** The quantile of quantile number `i`: cpuQuantile, then each of cpuQuantileCandidates. */
  private quantile(i: number): number {
    return i === 0 ? this.o.cpuQuantile : this.o.cpuQuantileCandidates[i - 1]!;
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
    const last = this.lastSampleAt;
    if (!(cores >= 0) || !(at >= last || Number.isNaN(last))) return;
    if (Number.isNaN(last)) {
      this.firstSampleAt = at;
    } else {
      // Score both models on this sample before they learn from it.
      const decay = Math.exp(-(at - last) / this.o.lossTimeConstantMs);
      const q = this.o.cpuQuantile;
      const seasonal = this.seasonal.reachable(hourOfDay(at), at);
      this.seasonalLoss = this.seasonalLoss * decay + quantileLoss(q, cores, seasonal);
      this.refreshFlat(at);
      const n = this.candidates;
      for (let k = 0; k < n; k++) this.setLoss(k, this.loss(k) * decay + quantileLoss(q, cores, this.candidateQuantile(k)));
      const c = this.changeCost;
      if (c !== undefined) {
        // Each model also pays for the changes the updater would make to follow it.
        const price = this.o.cpuModelChangePriceCoreHours;
        const drift = this.o.updater.driftThreshold;
        const stepUp = this.o.updater.maxStepUpFactor;
        c.tick(at - last);
        this.seasonalLoss = this.seasonalLoss + c.cost(0, seasonal, drift, stepUp, price, q);
        for (let k = 0; k < n; k++) this.setLoss(k, this.loss(k) + c.cost(k + 1, this.candidateQuantile(k), drift, stepUp, price, q));
      }
    }
    this.lastSampleAt = at;
    this.seasonal.add(cores, at);
    for (let k = 0; k < this.flatCount; k++) this.histograms.add(FLAT + k, cores, at);
    this.recent.add(cores, at);
  }

  /** The CPU (cores) to hold from `now` until the next change may happen (the updater's cooldown). */
  target(now: number): number {
    return Math.max(this.base(now, now + this.o.updater.podCooldownMs), this.surge(now));
  }

  /**
   * The CPU (cores) a change made at `now` should go to so that it lasts: the largest need of the
   * next `cpuHoldMs` (the hour-of-day model's coming hours; the all-hours model is flat), and at
   * least `target(now)` (`holdMs` instead of cpuHoldMs: a priced hold, see TailorOptions.holdPriceCoreHours). A surge raise is held for `cpuSurgeHoldMs` (a level that just appeared
   * may come back: a burst series is followed by one raise, not a raise and a drop per burst).
   * Example: a daily cycle at 200m by night and 1,000m by day, cpuHoldMs 4 h (the default, 15 min,
   * is off): at 05:00 with the rise at 08:00 the target is already 1,000m.
   */
  holdTarget(now: number, holdMs: number = this.o.cpuHoldMs): number {
    const o = this.o;
    let target = Math.max(this.base(now, now + Math.max(o.updater.podCooldownMs, holdMs)), this.surge(now));
    if (now < this.surgeHeldUntil) target = Math.max(target, this.surgeHeld);
    return target;
  }

  /** The model's quantile for [now, until): the hour-of-day model's hours in it, or all hours. */
  private base(now: number, until: number): number {
    const o = this.o;
    const seasonalReady = now - this.firstSampleAt >= DAY;
    if (!(o.cpuSeasonal && seasonalReady && this.seasonalLoss < this.loss(this.flatChoice()) * (1 - o.cpuSeasonalMinGain))) return this.flatQuantile(now);
    let target = 0;
    const first = Math.floor(now / HOUR);
    const last = Math.floor((until - 1) / HOUR);
    for (let h = first; h <= last && h < first + 24; h++) target = Math.max(target, this.seasonal.planned(h % 24, now));
    return target;
  }

  /** Sustained increase: the median of the last surgeWindowMs (30 min) above the model's target. */
  private surge(now: number): number {
    const o = this.o;
    if (!o.cpuSurge) return 0;
    const base = this.base(now, now + o.updater.podCooldownMs);
    if ((this.recent.quantile(0.5) ?? 0) <= base) return 0;
    const level = this.recent.quantile(o.cpuQuantile) ?? 0;
    if (o.cpuSurgeHoldMs > 0) {
      this.surgeHeld = now < this.surgeHeldUntil ? Math.max(this.surgeHeld, level) : level;
      this.surgeHeldUntil = now + o.cpuSurgeHoldMs;
    }
    return level;
  }

  /** The all-hours quantile of the candidate that predicts this container best (see flatChoice). */
  private flatQuantile(now: number): number {
    this.refreshFlat(now);
    return this.candidateQuantile(this.flatChoice());
  }

  /**
   * Which all-hours candidate sets the target: the default half-life (12 h) unless another one's
   * running loss is lower by at least cpuSeasonalMinGain (a container whose bursts pass quickly is
   * better served by a short memory; switching back and forth would cost changes).
   */
  private flatChoice(): number {
    let choice = 0;
    for (let k = 1; k < this.candidates; k++) {
      if (this.loss(k) < this.loss(0) * (1 - this.o.cpuSeasonalMinGain) && this.loss(k) < this.loss(choice)) choice = k;
    }
    return choice;
  }

  private refreshFlat(now: number): void {
    if (now - this.flatCachedAt < FLAT_REFRESH_MS) return;
    const flatCount = this.flatCount;
    for (let k = 0; k < this.candidates; k++) {
      const h = FLAT + (k % flatCount);
      this.setCandidateQuantile(k, this.histograms.isEmpty(h) ? 0 : this.histograms.percentile(h, this.quantile(Math.floor(k / flatCount))));
    }
    this.flatCachedAt = now;
  }
}
