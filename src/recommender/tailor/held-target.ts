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

/**
 * Where each number of the state lies in `HeldTarget.s`. One array of doubles rather than fields:
 * V8 keeps a field holding NaN or a fraction as a 16-byte heap number of its own, an array of
 * doubles holds them unboxed (decision 0275).
 */
const HELD = 0; // the published value (NaN before the first update)
const EXCESS_ABS_HOURS = 1; // the evidence for a cut: absolute excess x hours
const LAST_AT = 2; // the last update (NaN: none)

export class HeldTarget {
  private readonly o: HeldTargetOptions;
  /** The state, by the places above. */
  private readonly s: number[] = [NaN, 0, NaN];

  constructor(options: HeldTargetOptions) {
    this.o = options;
  }

  /**
   * The target to publish at `now`, given the need of now and the fresh target (`high` capped at
   * `cap`). With `cutAllowed` false a cut waits (its evidence still adds up); raises do not.
   */
  update(now: number, need: number, fresh: number, cap = Infinity, cutAllowed = true): number {
    const o = this.o;
    const s = this.s;
    const dtHours = Number.isNaN(s[LAST_AT]!) ? 0 : Math.max(0, now - s[LAST_AT]!) / 3_600_000;
    s[LAST_AT] = now;
    if (!(s[HELD]! >= need * o.low)) {
      this.moveTo(fresh);
    } else if (s[HELD]! > Math.min(cap, fresh * o.high)) {
      // The evidence for a cut: the excess over the band, summed since the level dropped.
      s[EXCESS_ABS_HOURS] = s[EXCESS_ABS_HOURS]! + dtHours * (s[HELD]! - Math.min(cap, fresh * o.high));
      if (cutAllowed && s[EXCESS_ABS_HOURS]! >= (o.cutCostAbsHours ?? 0)) this.moveTo(fresh);
    } else {
      s[EXCESS_ABS_HOURS] = 0;
    }
    return s[HELD]!;
  }

  /** The held value (NaN before the first update). */
  get value(): number {
    return this.s[HELD]!;
  }

  /** Moves the held value to `value` now (a change that happens anyway: decision 0250). */
  set(value: number): void {
    this.moveTo(value);
  }

  private moveTo(value: number): void {
    const s = this.s;
    s[HELD] = value;
    s[EXCESS_ABS_HOURS] = 0;
  }
}
