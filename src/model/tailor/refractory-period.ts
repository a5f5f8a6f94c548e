/**
 * A refractory period learned per container (experimental, off by default): if a container's
 * memory episodes — high samples, at least `highFraction` x its 7-day peak, less than `quietMs`
 * apart — never come sooner than some gap after the previous one, the limit may sit at the quiet
 * level in between and climb back before the earliest next episode.
 * The gap is the shortest one seen between episodes (x `safety`); it is trusted after `trustGaps`
 * gaps, and checked after the fact like the other memory rules: an episode or an OOM kill that
 * comes while the period is in force is a miss, and trust starts again from zero gaps.
 * Worked example, quietMs 4 h, 15-min steps of x2: episodes 20 h apart, the last high sample at
 * 10:00 -> from 14:00 the peak to cover is the quiet level, and from 04:00 next day (the earliest
 * next episode at 06:00 minus 8 steps of 15 min) it doubles every 15 min back to the 7-day peak.
 */
export interface RefractoryOptions {
  quietMs: number;
  highFraction: number;
  trustGaps: number;
  safety: number;
  /** The updater's cooldown: one step per this long. */
  stepMs: number;
  /** The updater's largest step up (x2). */
  maxStepUp: number;
}

export class RefractoryPeriod {
  private readonly o: RefractoryOptions;
  private lastHighAt = -Infinity;
  private shortestGap = Infinity;
  /** Gaps between episodes seen since the last miss. */
  private gaps = 0;
  /** Misses so far (for diagnostics and tests). */
  misses = 0;

  constructor(options: RefractoryOptions) {
    this.o = options;
  }

  /** A working-set sample (bytes) at `at`, with the 7-day peak before it. */
  add(bytes: number, peak7: number, at: number): void {
    if (!(peak7 > 0) || bytes < this.o.highFraction * peak7) return;
    const gap = at - this.lastHighAt;
    if (gap >= this.o.quietMs && Number.isFinite(gap)) {
      if (this.inForce(at)) this.miss();
      else this.gaps++;
      this.shortestGap = Math.min(this.shortestGap, gap);
    }
    this.lastHighAt = at;
  }

  /** An OOM kill at `at`: a jump; a miss when the period was in force. */
  recordOom(at: number): void {
    if (this.inForce(at)) this.miss();
    this.lastHighAt = at;
  }

  /** True when the period lets the limit down at `now`: trusted, quiet for `quietMs`, before the earliest next episode. */
  inForce(now: number): boolean {
    const o = this.o;
    // A gap must have been seen (with trustGaps 0 too): the period is never assumed endless.
    return this.gaps >= o.trustGaps && Number.isFinite(this.shortestGap) && now - this.lastHighAt >= o.quietMs && now < this.earliestNext();
  }

  /**
   * The peak to cover at `now` given the 7-day `peak` and the `quiet` level since the last episode:
   * `peak` unless the period is in force; then the quiet level, raised so that the 7-day peak is
   * reachable by the earliest next episode with one step per `stepMs` (one step spare).
   */
  cover(now: number, peak: number, quiet: number): number {
    if (!this.inForce(now)) return peak;
    const steps = Math.floor((this.earliestNext() - now) / this.o.stepMs) - 1;
    return steps <= 0 ? peak : Math.max(quiet, peak / this.o.maxStepUp ** steps);
  }

  private earliestNext(): number {
    return this.lastHighAt + this.shortestGap * this.o.safety;
  }

  private miss(): void {
    this.gaps = 0;
    this.misses++;
  }
}
