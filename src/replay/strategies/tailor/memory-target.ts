/**
 * Tailor's memory target for one container: a peak to cover (the margin is added by the caller),
 * from the tightest of three rules that has earned trust:
 *  - follow: the peak of the last `memoryFollowMs` (3 h) — leaks after a restart, steps down;
 *  - hour of day: the same hours on the last 7 days plus the last `memoryRecentMs` (3 h);
 *  - history: the peak of the last 7 days (always trusted).
 * After each hour, each rule is checked: would the limit it would have set (peak + margin) have
 * held that hour's peak? A miss suspends the rule until it has gone `...TrustMs` without one.
 * After an OOM kill the peak is at least limit x `oomBumpFactor` for `oomHoldMs`.
 */
import { HourlyPeaks } from './hourly-peaks.ts';
import type { TailorOptions } from './options.ts';

const HOUR = 3_600_000;

export class MemoryTarget {
  private readonly o: TailorOptions;
  private readonly peaks: HourlyPeaks;
  private readonly aheadHours: number;
  private readonly recentHours: number;
  private readonly followHours: number;
  private firstSampleAt = NaN;
  private currentHour = -1;
  private seasonalMissAt = -Infinity;
  private followMissAt = -Infinity;
  private oomFloor = 0;
  private oomFloorUntil = -Infinity;

  constructor(options: TailorOptions) {
    this.o = options;
    this.peaks = new HourlyPeaks(options.memoryHistoryMs);
    this.aheadHours = Math.ceil(options.horizonMs / HOUR);
    this.recentHours = Math.ceil(options.memoryRecentMs / HOUR);
    this.followHours = Math.ceil(options.memoryFollowMs / HOUR);
  }

  /** A working-set sample (bytes) at `at`. */
  add(bytes: number, at: number): void {
    if (!(bytes >= 0)) return;
    if (Number.isNaN(this.firstSampleAt)) this.firstSampleAt = at;
    const hour = Math.floor(at / HOUR);
    if (hour !== this.currentHour && this.currentHour >= 0) this.checkRules(this.currentHour, at);
    this.currentHour = hour;
    this.peaks.add(bytes, at);
  }

  /**
   * An OOM kill with `limitBytes` in use: the container wanted more, by an unknown amount. Hold at
   * least limit x 1.5 for a day; by then the real peak (below the raised limit) is in the history.
   */
  recordOom(limitBytes: number, at: number): void {
    const held = at < this.oomFloorUntil ? this.oomFloor : 0;
    this.oomFloor = Math.max(held, limitBytes * this.o.oomBumpFactor);
    this.oomFloorUntil = at + this.o.oomHoldMs;
  }

  /** Time since the first sample (ms), 0 before any. */
  historyMs(now: number): number {
    return Number.isNaN(this.firstSampleAt) ? 0 : now - this.firstSampleAt;
  }

  /** The peak to cover from `now` (bytes, before the margin); 0 without history. */
  peak(now: number): number {
    const o = this.o;
    let peak: number;
    if (this.trusted(this.followMissAt, now, o.memoryFollowTrustMs)) peak = this.peaks.recentMax(Math.floor(now / HOUR), this.followHours);
    else if (this.trusted(this.seasonalMissAt, now, o.memorySeasonalTrustMs)) peak = this.peaks.seasonalMax(now, this.aheadHours, this.recentHours);
    else peak = this.peaks.max(now);
    return now < this.oomFloorUntil ? Math.max(peak, this.oomFloor) : peak;
  }

  /** After hour `hour` ended: did each rule's limit hold its peak? A miss suspends the rule. */
  private checkRules(hour: number, now: number): void {
    const o = this.o;
    if (hour * HOUR - this.firstSampleAt < o.memorySeasonalAfterMs) return;
    const actual = this.peaks.peakOfHour(hour);
    const headroom = 1 + o.memoryMargin;
    if (actual > this.peaks.predictionFor(hour, this.aheadHours, this.recentHours) * headroom) this.seasonalMissAt = now;
    if (actual > this.peaks.recentMax(hour - 1, this.followHours) * headroom) this.followMissAt = now;
  }

  /** True when a rule has been checked for `trustMs` without a miss. */
  private trusted(missAt: number, now: number, trustMs: number): boolean {
    const o = this.o;
    return o.memorySeasonal && now - Math.max(missAt, this.firstSampleAt + o.memorySeasonalAfterMs) >= trustMs;
  }
}
