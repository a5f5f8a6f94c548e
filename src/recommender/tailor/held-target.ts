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

/**
 * Where each number of the state lies in `HeldTarget.s`. One array of doubles rather than eight
 * fields: V8 keeps a field holding NaN, -Infinity or a fraction as a 16-byte heap number of its
 * own (8 fields: 64 + 112 bytes of such boxes per held target), an array of doubles holds them
 * unboxed (48 + 64 bytes; decision 0275).
 */
const HELD = 0; // the published value (NaN before the first update)
const LOW_SINCE = 1; // since when the held value lies above the band (NaN: it does not)
const LAST_CUT_AT = 2;
const CUT_DELAY = 3; // the adaptive wait before a cut
const EXCESS_HOURS = 4; // the evidence for a cut: relative excess x hours...
const EXCESS_ABS_HOURS = 5; // ...and absolute excess x hours
const SHORT_ABS_HOURS = 6; // the evidence for a raise inside the band: shortfall x hours
const LAST_AT = 7; // the last update (NaN: none)

export class HeldTarget {
  private readonly o: HeldTargetOptions;
  /** The state, by the places above. */
  private readonly s: number[] = [NaN, NaN, -Infinity, 0, 0, 0, 0, NaN];

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
    s[SHORT_ABS_HOURS] = need > s[HELD]! ? s[SHORT_ABS_HOURS]! + dtHours * (need - s[HELD]!) : 0;
    const raisePaid = o.raiseCostAbsHours !== undefined && need > s[HELD]! && s[SHORT_ABS_HOURS]! >= o.raiseCostAbsHours;
    if (!(s[HELD]! >= need * o.low) || raisePaid) {
      // A raise soon after a cut: the cut was a mistake, wait longer before the next one.
      if (o.adaptive && now - s[LAST_CUT_AT]! < o.regretMs) s[CUT_DELAY] = Math.min(o.maxDelayMs, Math.max(2 * s[CUT_DELAY]!, o.minDelayMs));
      this.moveTo(fresh);
    } else if (s[HELD]! > Math.min(cap, fresh * o.high)) {
      if (Number.isNaN(s[LOW_SINCE]!)) s[LOW_SINCE] = now;
      // The evidence for a cut: the excess over the band, summed since the level dropped.
      const excess = dtHours * (s[HELD]! - Math.min(cap, fresh * o.high));
      s[EXCESS_HOURS] = s[EXCESS_HOURS]! + excess / s[HELD]!;
      s[EXCESS_ABS_HOURS] = s[EXCESS_ABS_HOURS]! + excess;
      const paid = s[EXCESS_HOURS]! >= (o.cutCostHours ?? 0) && s[EXCESS_ABS_HOURS]! >= (o.cutCostAbsHours ?? 0);
      if (cutAllowed && now - s[LOW_SINCE]! >= Math.max(o.cutAfterMs, s[CUT_DELAY]!) && paid) {
        // The previous cut held: wait less before the next one.
        if (o.adaptive && now - s[LAST_CUT_AT]! >= o.regretMs) s[CUT_DELAY] = s[CUT_DELAY]! / 2 < o.minDelayMs ? 0 : s[CUT_DELAY]! / 2;
        this.moveTo(fresh);
        s[LAST_CUT_AT] = now;
      }
    } else {
      s[LOW_SINCE] = NaN;
      s[EXCESS_HOURS] = 0;
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
    s[LOW_SINCE] = NaN;
    s[EXCESS_HOURS] = 0;
    s[EXCESS_ABS_HOURS] = 0;
    s[SHORT_ABS_HOURS] = 0;
  }
}
