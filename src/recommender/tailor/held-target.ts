/**
 * A published target with hysteresis: it stays put while it lies in the band [need x low, fresh
 * target x high] and moves to the fresh target only when it leaves it. The updater changes a
 * request when the target drifts 10% from it, so a target that wobbles inside the band would be
 * chased; held, it is not. Raises (the need above the held value) happen at once; a cut may wait
 * until the lower level has lasted `cutAfterMs`, and with `adaptive` each container learns its own
 * wait: a raise within `regretMs` of a cut doubles it (from `minDelayMs` up to `maxDelayMs`), a
 * cut that held halves it.
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
}

export class HeldTarget {
  private readonly o: HeldTargetOptions;
  private held = NaN;
  private lowSince = NaN;
  private lastCutAt = -Infinity;
  private cutDelay = 0;

  constructor(options: HeldTargetOptions) {
    this.o = options;
  }

  /** The target to publish at `now`, given the need of now and the fresh target (`high` capped at `cap`). */
  update(now: number, need: number, fresh: number, cap = Infinity): number {
    const o = this.o;
    if (!(this.held >= need * o.low)) {
      // A raise soon after a cut: the cut was a mistake, wait longer before the next one.
      if (o.adaptive && now - this.lastCutAt < o.regretMs) this.cutDelay = Math.min(o.maxDelayMs, Math.max(2 * this.cutDelay, o.minDelayMs));
      this.moveTo(fresh);
    } else if (this.held > Math.min(cap, fresh * o.high)) {
      if (Number.isNaN(this.lowSince)) this.lowSince = now;
      if (now - this.lowSince >= Math.max(o.cutAfterMs, this.cutDelay)) {
        // The previous cut held: wait less before the next one.
        if (o.adaptive && now - this.lastCutAt >= o.regretMs) this.cutDelay = this.cutDelay / 2 < o.minDelayMs ? 0 : this.cutDelay / 2;
        this.moveTo(fresh);
        this.lastCutAt = now;
      }
    } else {
      this.lowSince = NaN;
    }
    return this.held;
  }

  private moveTo(value: number): void {
    this.held = value;
    this.lowSince = NaN;
  }
}
