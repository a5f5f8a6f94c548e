/**
 * A published target with hysteresis: it stays put while it lies in the band [need x low, fresh
 * target x high] and moves to the fresh target only when it leaves it. The updater changes a
 * request when the target drifts 10% from it, so a target that wobbles inside the band would be
 * chased; held, it is not. Raises (the need above the held value) happen at once; a cut may wait
 * until the lower level has lasted `cutAfterMs`, and with `adaptive` each container learns its own
 * wait: a raise within `regretMs` of a cut doubles it (from `minDelayMs` up to `maxDelayMs`), a
 * cut that held halves it. With `cutCostHours` / `cutCostAbsHours` a cut waits until the excess
 * over the band, summed over time, has paid for the change.
 * Example, CPU, band [1, 1.25], no wait: held 500m; fresh 450m (need 420m) keeps 500m; fresh 380m
 * (500 > 380 x 1.25) moves it to 380m; need 520m moves it to the fresh target at once.
 */
export interface HeldTargetOptions {
  low: number;
  high: number;
  cutAfterMs: number;
  adaptive: boolean;
  regretMs: number;
  minDelayMs: number;
  maxDelayMs: number;
  /**
   * Evidence a cut needs, in hours of relative excess (0: off). While the held value lies above
   * the band, the excess (held - fresh x high) / held is summed over time; the cut comes when the sum
   * reaches this. A large, lasting drop is cut soon, a small one late, a dip that comes back before
   * it paid is never cut (no change down and up again). Example, 0.25 h: a drop to half the held
   * value is cut after 30 min, a drop of 20% after 75 min.
   */
  cutCostHours?: number;
  /**
   * Evidence a cut needs in absolute terms (the target's unit x hours; 0: off): the excess
   * held - fresh x high summed over time. A cut that saves little in absolute terms (a container
   * idling at 40m whose need fell to 30m) waits until it has paid for its change.
   */
  cutCostAbsHours?: number;
  /**
   * A raise inside the band (the need above the held value but not past need x low) comes once
   * the shortfall (need - held), summed over time, reaches this (target unit x hours; undefined:
   * only past the band).
   */
  raiseCostAbsHours?: number;
}

export class HeldTarget {
  private readonly o: HeldTargetOptions;
  private held = NaN;
  private lowSince = NaN;
  private lastCutAt = -Infinity;
  private cutDelay = 0;
  private excessHours = 0;
  private excessAbsHours = 0;
  private shortAbsHours = 0;
  private lastAt = NaN;

  constructor(options: HeldTargetOptions) {
    this.o = options;
  }

  /**
   * The target to publish at `now`, given the need of now and the fresh target (`high` capped at
   * `cap`). With `cutAllowed` false a cut waits (its evidence still adds up); raises do not.
   */
  update(now: number, need: number, fresh: number, cap = Infinity, cutAllowed = true): number {
    const o = this.o;
    const dtHours = Number.isNaN(this.lastAt) ? 0 : Math.max(0, now - this.lastAt) / 3_600_000;
    this.lastAt = now;
    this.shortAbsHours = need > this.held ? this.shortAbsHours + dtHours * (need - this.held) : 0;
    const raisePaid = o.raiseCostAbsHours !== undefined && need > this.held && this.shortAbsHours >= o.raiseCostAbsHours;
    if (!(this.held >= need * o.low) || raisePaid) {
      // A raise soon after a cut: the cut was a mistake, wait longer before the next one.
      if (o.adaptive && now - this.lastCutAt < o.regretMs) this.cutDelay = Math.min(o.maxDelayMs, Math.max(2 * this.cutDelay, o.minDelayMs));
      this.moveTo(fresh);
    } else if (this.held > Math.min(cap, fresh * o.high)) {
      if (Number.isNaN(this.lowSince)) this.lowSince = now;
      // The evidence for a cut: the excess over the band, summed since the level dropped.
      const excess = dtHours * (this.held - Math.min(cap, fresh * o.high));
      this.excessHours += excess / this.held;
      this.excessAbsHours += excess;
      const paid = this.excessHours >= (o.cutCostHours ?? 0) && this.excessAbsHours >= (o.cutCostAbsHours ?? 0);
      if (cutAllowed && now - this.lowSince >= Math.max(o.cutAfterMs, this.cutDelay) && paid) {
        // The previous cut held: wait less before the next one.
        if (o.adaptive && now - this.lastCutAt >= o.regretMs) this.cutDelay = this.cutDelay / 2 < o.minDelayMs ? 0 : this.cutDelay / 2;
        this.moveTo(fresh);
        this.lastCutAt = now;
      }
    } else {
      this.lowSince = NaN;
      this.excessHours = 0;
      this.excessAbsHours = 0;
    }
    return this.held;
  }

  /** The held value (NaN before the first update). */
  get value(): number {
    return this.held;
  }

  /** Moves the held value to `value` now (a change that happens anyway: decision 0250). */
  set(value: number): void {
    this.moveTo(value);
  }

  private moveTo(value: number): void {
    this.held = value;
    this.lowSince = NaN;
    this.excessHours = 0;
    this.excessAbsHours = 0;
    this.shortAbsHours = 0;
  }
}
