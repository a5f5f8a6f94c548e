/**
 * Tailor's memory target for one container: a peak to cover (the margin is added by the caller),
 * from the tightest of three rules that has earned trust:
 *  - follow: the peak of the hour under way and the last `memoryFollowMs` (1 h) — leaks after a
 *    restart, steps down;
 *  - hour of day: the same hours on the last 7 days plus the last `memoryRecentMs` (1 h);
 *  - history: the peak of the last 7 days (always trusted).
 * Each rule is checked after the fact, sample by sample: would the limit it set for the hour have
 * OOM-killed the container, given the updater's pressure guard (`checkSample`)? A rule is trusted
 * after `...TrustMs` of checks without a miss; after a miss it waits `memoryRetrustMs`, doubled per
 * earlier miss (docs/decisions/0141). With `memoryCheckPastGuard` off, the older hourly check:
 * did the hour's peak stay under the rule's limit?
 * After an OOM kill the peak is at least limit x `oomBumpFactor` for `oomHoldMs`.
 * With `memoryRefractoryQuietMs` (experimental, off) the 7-day peak rule lets the limit down
 * between episodes of a container with a learned refractory period (refractory-period.ts).
 */
import { HourlyPeaks } from './hourly-peaks.ts';
import { RefractoryPeriod } from './refractory-period.ts';
import { criticalS, risingSlope } from './rising-trend.ts';
import type { TailorSettings } from './experiments.ts';
import type { OomBump } from '../types.ts';

const HOUR = 3_600_000;
/** Hours over which the follow rule measures growth (a leak's slope). */
const GROWTH_HOURS = 3;

/**
 * Where each number of the state lies in `MemoryTarget.s`: one array of doubles rather than fields
 * and small arrays (V8 keeps a field holding NaN, -Infinity or a time in ms as a 16-byte heap number
 * of its own, and an array costs 48 bytes besides its numbers; decision 0275).
 */
const FIRST_SAMPLE_AT = 0; // NaN before the first sample
const LAST_SAMPLE_AT = 1;
const SEASONAL_MISS_AT = 2; // each rule's last miss (-Infinity: none)
const FOLLOW_MISS_AT = 3;
const OOM_FLOOR = 4; // after an OOM kill, the peak is at least this until OOM_FLOOR_UNTIL
const OOM_FLOOR_UNTIL = 5;
/** Past-guard checks, per rule r (0: hour of day, 1: follow): the limit the rule set for this hour... */
const CHECK_LIMIT = 6; // + r
/** ...and since when the working set has stayed at or above the pressure line (-1: it has not). */
const PRESSURE_SINCE = 8; // + r
const SLOTS = 10;

export class MemoryTarget {
  private readonly o: TailorSettings;
  private readonly peaks: HourlyPeaks;
  /** The state, by the places above. */
  private readonly s: number[] = new Array<number>(SLOTS);
  /** The hour (ms / 1 h) of the last sample (-1: none). */
  private currentHour = -1;
  /** Misses so far per rule (past-guard checks): each one doubles the wait before trust returns. */
  private seasonalMisses = 0;
  private followMisses = 0;
  private readonly refractory: RefractoryPeriod | undefined;

  constructor(options: TailorSettings) {
    this.o = options;
    this.peaks = new HourlyPeaks(options.memoryHistoryMs);
    const s = this.s;
    s[FIRST_SAMPLE_AT] = NaN;
    s[LAST_SAMPLE_AT] = NaN;
    s[SEASONAL_MISS_AT] = -Infinity;
    s[FOLLOW_MISS_AT] = -Infinity;
    s[OOM_FLOOR] = 0;
    s[OOM_FLOOR_UNTIL] = -Infinity;
    s[CHECK_LIMIT] = s[CHECK_LIMIT + 1] = Infinity;
    s[PRESSURE_SINCE] = s[PRESSURE_SINCE + 1] = -1;
    if (options.memoryRefractoryQuietMs > 0) {
      this.refractory = new RefractoryPeriod({
        quietMs: options.memoryRefractoryQuietMs,
        highFraction: options.memoryRefractoryHighFraction,
        trustGaps: options.memoryRefractoryTrustGaps,
        safety: options.memoryRefractorySafety,
        stepMs: options.horizonMs,
        maxStepUp: options.maxStepUp,
      });
    }
  }

  /** Hours the hour-of-day rule looks ahead (settings, not state). */
  private get aheadHours(): number {
    return Math.ceil(this.o.horizonMs / HOUR);
  }

  /** Recent hours the hour-of-day rule adds. */
  private get recentHours(): number {
    return Math.ceil(this.o.memoryRecentMs / HOUR);
  }

  /** Hours the follow rule covers. */
  private get followHours(): number {
    return Math.ceil(this.o.memoryFollowMs / HOUR);
  }

  /** The first sample's time (NaN: none yet). */
  private get firstSampleAt(): number {
    return this.s[FIRST_SAMPLE_AT]!;
  }

  /** A working-set sample (bytes) at `at`. */
  add(bytes: number, at: number): void {
    if (!(bytes >= 0)) return;
    const s = this.s;
    if (Number.isNaN(s[FIRST_SAMPLE_AT]!)) s[FIRST_SAMPLE_AT] = at;
    const hour = Math.floor(at / HOUR);
    const gap = Number.isNaN(s[LAST_SAMPLE_AT]!) ? 0 : at - s[LAST_SAMPLE_AT]!;
    s[LAST_SAMPLE_AT] = at;
    if (this.o.memoryCheckPastGuard) {
      if (hour !== this.currentHour) this.startChecks(hour);
      this.checkSample(bytes, at, gap);
    } else if (hour !== this.currentHour && this.currentHour >= 0) {
      this.checkRules(this.currentHour, at);
    }
    this.currentHour = hour;
    this.refractory?.add(bytes, this.peaks.max(at), at);
    this.peaks.add(bytes, at);
  }

  /**
   * Past-guard checks, at the start of hour `hour`: the limit each rule would set for it (from the
   * hours before it only). No checks in the first `memorySeasonalAfterMs` of history.
   */
  private startChecks(hour: number): void {
    const o = this.o;
    const history = Number.isNaN(this.firstSampleAt) ? 0 : hour * HOUR - this.firstSampleAt;
    // The lowest limit the rule leaves in force: the updater acts only below lowerFactor x target.
    const headroom = (1 + o.memoryMargin) * o.memoryLowerFactor;
    const s = this.s;
    s[CHECK_LIMIT] = history >= o.memorySeasonalAfterMs ? this.peaks.predictionFor(hour, this.aheadHours, this.recentHours) * headroom : Infinity;
    s[CHECK_LIMIT + 1] = history >= o.memoryFollowMs ? this.peaks.recentMax(hour - 1, this.followHours) * headroom : Infinity;
    s[PRESSURE_SINCE] = s[PRESSURE_SINCE + 1] = -1;
  }

  /**
   * Would the sample have OOM-killed the container under each rule's limit, with the updater's
   * pressure guard in place? The guard raises a limit (x raiseFactor) once the working set has
   * stayed at or above threshold x limit for its window, so slow growth is caught before the kill;
   * only a jump past the limit faster than the guard reacts is a miss.
   * Worked number: limit 1,000 MiB, line 900 MiB, window 2 min, 1-minute samples: 850 -> 1,010 is
   * a miss; 910, 950 (2 minutes at the line: the limit becomes 1,500) -> 1,010 is not.
   */
  private checkSample(bytes: number, at: number, gap: number): void {
    const o = this.o;
    const s = this.s;
    for (let r = 0; r < 2; r++) {
      const limit = s[CHECK_LIMIT + r]!;
      if (limit === Infinity) continue;
      if (bytes > limit) {
        if (r === 0) this.missSeasonal(at);
        else this.missFollow(at);
        s[CHECK_LIMIT + r] = Infinity; // one miss per rule and hour is enough
        continue;
      }
      if (bytes < limit * o.pressureThreshold) {
        s[PRESSURE_SINCE + r] = -1;
        continue;
      }
      const since = s[PRESSURE_SINCE + r]! < 0 ? at : s[PRESSURE_SINCE + r]!;
      s[PRESSURE_SINCE + r] = since;
      if (at - since + gap >= o.pressureWindowMs) {
        s[CHECK_LIMIT + r] = limit * o.pressureRaiseFactor;
        s[PRESSURE_SINCE + r] = -1;
      }
    }
  }

  /**
   * An OOM kill with `limitBytes` in use: the container wanted more, by an unknown amount. Hold at
   * least limit x `oomBumpFactor` (1.5) for `oomHoldMs`; by then the real peak (below the raised
   * limit) is in the history. A VPA's own `bump` (upstream 1.8's fields) holds
   * max(limit x its ratio, limit + its minimum) instead: 1 GiB with ratio 3 -> 3 GiB; with only a
   * minimum of 512Mi, max(1.5 GiB, 1.5 GiB).
   */
  recordOom(limitBytes: number, at: number, bump?: OomBump): void {
    const s = this.s;
    const held = at < s[OOM_FLOOR_UNTIL]! ? s[OOM_FLOOR]! : 0;
    const bumped = Math.max(limitBytes * (bump?.oomBumpUpRatio ?? this.o.oomBumpFactor), limitBytes + (bump?.oomMinBumpUpBytes ?? 0));
    s[OOM_FLOOR] = Math.max(held, bumped);
    s[OOM_FLOOR_UNTIL] = at + this.o.oomHoldMs;
    if (this.o.memoryCheckPastGuard) {
      // A kill under a tighter rule is that rule's miss (and the follow rule's, tighter still).
      const o = this.o;
      const follow = this.trusted(s[FOLLOW_MISS_AT]!, this.followMisses, at, o.memoryFollowMs, o.memoryFollowTrustMs);
      const seasonal = !follow && this.trusted(s[SEASONAL_MISS_AT]!, this.seasonalMisses, at, o.memorySeasonalAfterMs, o.memorySeasonalTrustMs);
      if (follow || seasonal) this.missFollow(at);
      if (seasonal) this.missSeasonal(at);
    }
    this.refractory?.recordOom(at);
    if (this.o.oomIntoHistory) this.peaks.add(bumped, at);
  }

  /** Time since the first sample (ms), 0 before any. */
  historyMs(now: number): number {
    return Number.isNaN(this.firstSampleAt) ? 0 : now - this.firstSampleAt;
  }

  /** The peak to cover from `now` (bytes, before the margin); 0 without history. */
  peak(now: number): number {
    return this.rulePeak(now, 0);
  }

  /**
   * The peak a change made at `now` should cover so that it lasts `memoryHoldMs`, by the same
   * trusted rule: the follow rule adds the last hours' growth for that long (a leak is raised
   * once per hold, not every hour), the hour-of-day rule looks that far ahead, the 7-day peak is
   * the same. Example, follow rule, hourly peaks 500, 520, 540, 560 MiB, hold 2 h: 560 + 20 x 2 =
   * 600 MiB. With `memoryTrendHours`, the other two rules cover growth as well when the hourly
   * peaks pass the trend test (rising-trend.ts): the level of now plus Sen's slope x the hold.
   */
  holdPeak(now: number, holdMs: number = this.o.memoryHoldMs): number {
    return this.rulePeak(now, Math.max(0, Math.ceil(holdMs / HOUR)));
  }

  private rulePeak(now: number, holdHours: number): number {
    const o = this.o;
    const hour = Math.floor(now / HOUR);
    let peak: number;
    const s = this.s;
    const follow = this.trusted(s[FOLLOW_MISS_AT]!, this.followMisses, now, o.memoryFollowMs, o.memoryFollowTrustMs);
    if (follow) {
      peak = this.peaks.recentMax(hour, this.followHours + 1); // + the hour under way
      if (holdHours > 0) peak = peak * (1 + this.hourlyRise(hour)) + this.growthPerHour(hour) * holdHours;
    } else if (this.trusted(s[SEASONAL_MISS_AT]!, this.seasonalMisses, now, o.memorySeasonalAfterMs, o.memorySeasonalTrustMs)) {
      peak = this.peaks.seasonalMax(now, Math.max(this.aheadHours, holdHours), this.recentHours);
    } else {
      peak = this.peaks.max(now);
      const f = o.memorySpikeDecayFloor;
      if (f > 0) {
        // A spike that has passed for memorySpikeQuietMs is covered only down to f x its peak.
        const quietHours = Math.ceil(o.memorySpikeQuietMs / HOUR);
        peak = Math.max(peak * f, this.peaks.recentMax(hour, quietHours + 1));
      }
      if (this.refractory !== undefined) {
        // Between episodes: the quiet level since the last one (the hours of the quiet window).
        const quiet = this.peaks.recentMax(hour, Math.ceil(o.memoryRefractoryQuietMs / HOUR));
        peak = this.refractory.cover(now, peak, quiet);
      }
    }
    if (holdHours > 0 && !follow && o.memoryTrendHours > 0) {
      // A tested rise: the level of now (this hour and the last) plus the growth over the hold. The
      // follow rule has its own growth cover (its 3-hour rise also gives a noisy container headroom).
      const growth = risingSlope(this.peaks, hour - 1, o.memoryTrendHours, criticalS(o.memoryTrendHours, o.memoryTrendLevel));
      if (growth > 0) peak = Math.max(peak, this.peaks.recentMax(hour, 2) * (1 + this.hourlyRise(hour)) + growth * holdHours);
    }
    return now < s[OOM_FLOOR_UNTIL]! ? Math.max(peak, s[OOM_FLOOR]!) : peak;
  }

  /**
   * The largest rise from one hourly peak to the next over the last day, as a fraction (0.05: +5%),
   * at most `memoryRiseCap`: how far this container's peak moves in an hour by itself, so a raise
   * that covers it is not followed by another at the next noisy hour.
   */
  private hourlyRise(hour: number): number {
    const cap = this.o.memoryRiseCap;
    if (!(cap > 0)) return 0;
    let rise = 0;
    let previous = this.peaks.peakOfHour(hour - 24);
    for (let h = hour - 23; h < hour; h++) {
      const peak = this.peaks.peakOfHour(h);
      if (previous > 0 && peak > previous) rise = Math.max(rise, peak / previous - 1);
      previous = peak;
    }
    return Math.min(rise, cap);
  }

  /** Growth of the hourly peaks over the last GROWTH_HOURS full hours, per hour (0 when not growing). */
  private growthPerHour(hour: number): number {
    const last = this.peaks.peakOfHour(hour - 1);
    const first = this.peaks.peakOfHour(hour - 1 - GROWTH_HOURS);
    if (last === 0 || first === 0) return 0;
    return Math.max(0, (last - first) / GROWTH_HOURS);
  }

  /** After hour `hour` ended: did each rule's limit hold its peak? A miss suspends the rule. */
  private checkRules(hour: number, now: number): void {
    const o = this.o;
    if (hour * HOUR - this.firstSampleAt < o.memorySeasonalAfterMs) return;
    const actual = this.peaks.peakOfHour(hour);
    const headroom = 1 + o.memoryMargin;
    if (actual > this.peaks.predictionFor(hour, this.aheadHours, this.recentHours) * headroom) this.missSeasonal(now);
    if (actual > this.peaks.recentMax(hour - 1, this.followHours) * headroom) this.missFollow(now);
  }

  private missFollow(at: number): void {
    this.s[FOLLOW_MISS_AT] = at;
    this.followMisses++;
  }

  private missSeasonal(at: number): void {
    this.s[SEASONAL_MISS_AT] = at;
    this.seasonalMisses++;
  }

  /**
   * True when a rule has earned trust: checked for `trustMs` (from `checksAfterMs` of history)
   * without a miss. With past-guard checks, a rule that has missed waits `memoryRetrustMs` after
   * its last miss, doubled for every earlier miss (a container that jumped will jump again):
   * 8 days after the first miss, 16 after the second.
   */
  private trusted(missAt: number, misses: number, now: number, checksAfterMs: number, trustMs: number): boolean {
    const o = this.o;
    if (!o.memorySeasonal) return false;
    if (!o.memoryCheckPastGuard) return now - Math.max(missAt, this.firstSampleAt + o.memorySeasonalAfterMs) >= trustMs;
    if (misses === 0) return now - (this.firstSampleAt + checksAfterMs) >= trustMs;
    return now - missAt >= o.memoryRetrustMs * 2 ** Math.min(misses - 1, 10);
  }
}
