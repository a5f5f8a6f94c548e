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
 * The state lies in one array of doubles, `MemoryTarget.s`, rather than in fields and small arrays
 * (V8 keeps a field holding NaN, -Infinity or a time in ms as a 16-byte heap number of its own, and
 * an array costs 48 bytes besides its numbers; decision 0275). The class reads and writes it by
 * name, through the accessors below (on the prototype: they cost no bytes per model).
 */
const SLOTS = 10;
/** The rules the past-guard checks follow, numbered as their places in `s`. */
const SEASONAL_RULE = 0;
const FOLLOW_RULE = 1;
type CheckedRule = typeof SEASONAL_RULE | typeof FOLLOW_RULE;

export class MemoryTarget {
  private readonly o: TailorSettings;
  private readonly peaks: HourlyPeaks;
  /** The state, read and written through the accessors below. */
  private readonly s: number[] = new Array<number>(SLOTS);
  /** The hour (ms / 1 h) of the last sample (-1: none). */
  private currentHour = -1;
  /** Misses so far per rule (past-guard checks): each one doubles the wait before trust returns. */
  private seasonalMisses = 0;
  private followMisses = 0;
  /**
   * memoryFollowDipTrustMs: hours the follow rule has been in a dip (its limit below the hour-of-day
   * rule's by more than the margin) without a miss since its last one, and whether the hour under
   * way is one (1) or not (0). Small integers: no heap numbers (decision 0275).
   */
  private followDipHours = 0;
  private followDipNow = 0;
  private readonly refractory: RefractoryPeriod | undefined;

  constructor(options: TailorSettings) {
    this.o = options;
    this.peaks = new HourlyPeaks(options.memoryHistoryMs);
    this.firstSampleAt = NaN;
    this.lastSampleAt = NaN;
    this.seasonalMissAt = -Infinity;
    this.followMissAt = -Infinity;
    this.oomFloor = 0;
    this.oomFloorUntil = -Infinity;
    this.startRuleCheck(SEASONAL_RULE, Infinity);
    this.startRuleCheck(FOLLOW_RULE, Infinity);
    if (options.memoryRefractoryQuietMs > 0) {
      this.refractory = new RefractoryPeriod({
        quietMs: options.memoryRefractoryQuietMs,
        highFraction: options.memoryRefractoryHighFraction,
        trustGaps: options.memoryRefractoryTrustGaps,
        safety: options.memoryRefractorySafety,
        stepMs: options.updater.podCooldownMs,
        maxStepUp: options.updater.maxStepUpFactor,
      });
    }
  }

  /** Hours the hour-of-day rule looks ahead (settings, not state). */
  private get aheadHours(): number {
    return Math.ceil(this.o.updater.podCooldownMs / HOUR);
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
    return this.s[0]!;
  }
  private set firstSampleAt(at: number) {
    this.s[0] = at;
  }

  /** The last sample's time (NaN: none yet). */
  private get lastSampleAt(): number {
    return this.s[1]!;
  }
  private set lastSampleAt(at: number) {
    this.s[1] = at;
  }

  /** The hour-of-day rule's last miss (-Infinity: none). */
  private get seasonalMissAt(): number {
    return this.s[2]!;
  }
  private set seasonalMissAt(at: number) {
    this.s[2] = at;
  }

  /** The follow rule's last miss (-Infinity: none). */
  private get followMissAt(): number {
    return this.s[3]!;
  }
  private set followMissAt(at: number) {
    this.s[3] = at;
  }

  /** After an OOM kill the peak is at least this... */
  private get oomFloor(): number {
    return this.s[4]!;
  }
  private set oomFloor(bytes: number) {
    this.s[4] = bytes;
  }

  /** ...until then. */
  private get oomFloorUntil(): number {
    return this.s[5]!;
  }
  private set oomFloorUntil(at: number) {
    this.s[5] = at;
  }

  /** Past-guard checks: the limit `rule` set for this hour (Infinity: not checked). */
  private checkLimit(rule: CheckedRule): number {
    return this.s[6 + rule]!;
  }
  private setCheckLimit(rule: CheckedRule, limit: number): void {
    this.s[6 + rule] = limit;
  }

  /** Past-guard checks: since when the working set has stayed at or above `rule`'s pressure line (-1: it has not). */
  private pressureSince(rule: CheckedRule): number {
    return this.s[8 + rule]!;
  }
  private setPressureSince(rule: CheckedRule, at: number): void {
    this.s[8 + rule] = at;
  }

  /** A check of `rule` starts: its limit for the hour, no pressure yet. */
  private startRuleCheck(rule: CheckedRule, limit: number): void {
    this.setCheckLimit(rule, limit);
    this.setPressureSince(rule, -1);
  }

  /** A working-set sample (bytes) at `at`. */
  add(bytes: number, at: number): void {
    if (!(bytes >= 0)) return;
    if (Number.isNaN(this.firstSampleAt)) this.firstSampleAt = at;
    const hour = Math.floor(at / HOUR);
    const gap = Number.isNaN(this.lastSampleAt) ? 0 : at - this.lastSampleAt;
    this.lastSampleAt = at;
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
    this.startRuleCheck(
      SEASONAL_RULE,
      history >= o.memorySeasonalAfterMs ? this.peaks.predictionFor(hour, this.aheadHours, this.recentHours) * headroom : Infinity,
    );
    this.startRuleCheck(FOLLOW_RULE, history >= o.memoryFollowMs ? this.peaks.recentMax(hour - 1, this.followHours) * headroom : Infinity);
    if (o.memoryFollowDipTrustMs > 0) this.startDipHour();
  }

  /**
   * memoryFollowDipTrustMs, at the start of an hour (after its checks' limits are set): count the
   * hour that ended if it was in a dip (a miss in it would have reset the count), and say whether
   * this one is. A dip that ended without a miss earns the trust at once: the container came back
   * up gradually, and the rule (with the pressure guard) held.
   */
  private startDipHour(): void {
    const o = this.o;
    const needed = Math.ceil(o.memoryFollowDipTrustMs / HOUR);
    const follow = this.checkLimit(FOLLOW_RULE);
    const seasonal = this.checkLimit(SEASONAL_RULE);
    const dip = follow < Infinity && seasonal < Infinity && follow * (1 + o.memoryMargin) < seasonal;
    if (this.followDipNow === 1) this.followDipHours = dip ? Math.min(needed, this.followDipHours + 1) : needed;
    this.followDipNow = dip ? 1 : 0;
  }

  /** memoryFollowDipTrustMs: the follow rule is in a dip it has not yet earned trust in. */
  private untestedDip(): boolean {
    const o = this.o;
    return o.memoryFollowDipTrustMs > 0 && this.followDipNow === 1 && this.followDipHours * HOUR < o.memoryFollowDipTrustMs;
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
    this.checkRule(SEASONAL_RULE, bytes, at, gap);
    this.checkRule(FOLLOW_RULE, bytes, at, gap);
  }

  /** {@link checkSample} for one rule. */
  private checkRule(rule: CheckedRule, bytes: number, at: number, gap: number): void {
    const o = this.o;
    const limit = this.checkLimit(rule);
    if (limit === Infinity) return;
    if (bytes > limit) {
      if (rule === SEASONAL_RULE) this.missSeasonal(at);
      else this.missFollow(at);
      this.setCheckLimit(rule, Infinity); // one miss per rule and hour is enough
      return;
    }
    if (bytes < limit * o.updater.memoryPressureRatio) {
      this.setPressureSince(rule, -1);
      return;
    }
    const since = this.pressureSince(rule) < 0 ? at : this.pressureSince(rule);
    this.setPressureSince(rule, since);
    if (at - since + gap >= o.updater.memoryPressureWindowMs) this.startRuleCheck(rule, limit * o.updater.memoryPressureRaiseFactor);
  }

  /**
   * An OOM kill with `limitBytes` in use: the container wanted more, by an unknown amount. Hold at
   * least limit x `oomBumpFactor` (1.5) for `oomHoldMs`; by then the real peak (below the raised
   * limit) is in the history. A VPA's own `bump` (upstream 1.8's fields) holds
   * max(limit x its ratio, limit + its minimum) instead: 1 GiB with ratio 3 -> 3 GiB; with only a
   * minimum of 512Mi, max(1.5 GiB, 1.5 GiB).
   */
  recordOom(limitBytes: number, at: number, bump?: OomBump): void {
    const held = at < this.oomFloorUntil ? this.oomFloor : 0;
    const bumped = Math.max(limitBytes * (bump?.oomBumpUpRatio ?? this.o.oomBumpFactor), limitBytes + (bump?.oomMinBumpUpBytes ?? 0));
    this.oomFloor = Math.max(held, bumped);
    this.oomFloorUntil = at + this.o.oomHoldMs;
    if (this.o.memoryCheckPastGuard) {
      // A kill under a tighter rule is that rule's miss (and the follow rule's, tighter still).
      const o = this.o;
      const follow = this.trusted(this.followMissAt, this.followMisses, at, o.memoryFollowMs, o.memoryFollowTrustMs);
      const seasonal = !follow && this.trusted(this.seasonalMissAt, this.seasonalMisses, at, o.memorySeasonalAfterMs, o.memorySeasonalTrustMs);
      if (follow || seasonal) this.missFollow(at);
      if (seasonal) this.missSeasonal(at);
    }
    this.refractory?.recordOom(at);
    if (this.o.oomIntoHistory) this.peaks.add(bumped, at);
  }

  /** True while an OOM kill's floor holds (`oomHoldMs` after the last kill). */
  oomHeld(now: number): boolean {
    return now < this.oomFloorUntil;
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
    const follow = this.trusted(this.followMissAt, this.followMisses, now, o.memoryFollowMs, o.memoryFollowTrustMs);
    if (follow) {
      peak = this.peaks.recentMax(hour, this.followHours + 1); // + the hour under way
      if (holdHours > 0) peak = peak * (1 + this.hourlyRise(hour)) + this.growthPerHour(hour) * holdHours;
      // In a dip not tested yet: cover a return to the hour-of-day rule's peak (its limit without the margin).
      if (this.untestedDip()) peak = Math.max(peak, this.peaks.seasonalMax(now, Math.max(this.aheadHours, holdHours), this.recentHours) / (1 + o.memoryMargin));
    } else if (this.trusted(this.seasonalMissAt, this.seasonalMisses, now, o.memorySeasonalAfterMs, o.memorySeasonalTrustMs)) {
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
    return now < this.oomFloorUntil ? Math.max(peak, this.oomFloor) : peak;
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
    this.followMissAt = at;
    this.followMisses++;
    this.followDipHours = 0;
    this.followDipNow = 0;
  }

  private missSeasonal(at: number): void {
    this.seasonalMissAt = at;
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
