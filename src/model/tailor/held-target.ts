/**
 * A published target with hysteresis: it stays put while it lies in the band [need x low, fresh
 * target x high] and moves to the fresh target only when it leaves it. The updater changes a
 * request when the target drifts 10% from it, so a target that wobbles inside the band would be
 * chased; held, it is not. Raises (the need above the held value) happen at once; with
 * `cutCostAbsHours` a cut waits until the excess over the band, summed over time, has paid for the
 * change. Estimates come in time order (the strategy is `timeOrdered`).
 * Example, CPU, band [1, 1.25], no price: held 500m; fresh 450m (need 420m) keeps 500m; fresh 380m
 * (500 > 380 x 1.25) moves it to 380m; need 520m moves it to the fresh target at once.
 */
export interface HeldTargetOptions {
  low: number;
  high: number;
  /**
   * Evidence a cut needs in absolute terms (the target's unit x hours; 0 or undefined: none): the
   * excess held - fresh x high summed over time. A cut that saves little in absolute terms (a
   * container idling at 40m whose need fell to 30m) waits until it has paid for its change.
   */
  cutCostAbsHours?: number;
}

export class HeldTarget {
  private readonly o: HeldTargetOptions;
  /**
   * The state, read and written through the accessors below (on the prototype: no bytes per
   * model): one array of doubles rather than fields, as V8 keeps a field holding NaN or a fraction
   * as a 16-byte heap number of its own, an array of doubles holds them unboxed (decision 0275).
   * The held value, the evidence for a cut, the last update.
   */
  private readonly s: number[] = [NaN, 0, NaN];

  constructor(options: HeldTargetOptions) {
    this.o = options;
  }

  /** The held value (NaN before the first update). */
  get value(): number {
    return this.held;
  }

  /** The published value (NaN before the first update). */
  private get held(): number {
    return this.s[0]!;
  }
  private set held(value: number) {
    this.s[0] = value;
  }

  /** The evidence for a cut: the excess over the band x hours, summed since the level dropped. */
  private get excessAbsHours(): number {
    return this.s[1]!;
  }
  private set excessAbsHours(evidence: number) {
    this.s[1] = evidence;
  }

  /** The last update (NaN: none). */
  private get lastAt(): number {
    return this.s[2]!;
  }
  private set lastAt(at: number) {
    this.s[2] = at;
  }

  /**
   * The target to publish at `now`, given the need of now and the fresh target (`high` capped at
   * `cap`). With `cutAllowed` false a cut waits (its evidence still adds up); raises do not.
   */
  update(now: number, need: number, fresh: number, cap = Infinity, cutAllowed = true): number {
    const o = this.o;
    const dtHours = Number.isNaN(this.lastAt) ? 0 : Math.max(0, now - this.lastAt) / 3_600_000;
    this.lastAt = now;
    const held = this.held;
    if (!(held >= need * o.low)) {
      this.moveTo(fresh);
    } else if (held > Math.min(cap, fresh * o.high)) {
      this.excessAbsHours += dtHours * (held - Math.min(cap, fresh * o.high));
      if (cutAllowed && this.excessAbsHours >= (o.cutCostAbsHours ?? 0)) this.moveTo(fresh);
    } else {
      this.excessAbsHours = 0;
    }
    return this.held;
  }

  /** Moves the held value to `value` now (a change that happens anyway: decision 0250). */
  set(value: number): void {
    this.moveTo(value);
  }

  private moveTo(value: number): void {
    this.held = value;
    this.excessAbsHours = 0;
  }
}
