/**
 * What following a predictor would cost in changes, priced in the predictor's loss units, so that
 * model selection weighs the changes a model brings against the quantile loss it saves. The
 * predictor's output is followed as the updater would follow a target: the level moves when the
 * prediction leaves the drift band (|p - level| > drift x level), in steps of at most x`maxStep`
 * (up) or /`maxStep` (down), each step a change. Each change costs `priceCoreHours` of slack; the
 * quantile loss weighs slack by (1 - q), and sums one loss per sample, so in its units a change is
 * price x (1 - q) / (sample interval in hours).
 * Worked number: price 0.1 core-hour, q = 0.902, 1-minute samples: a change costs 0.1 x 0.098 x 60
 * = 0.59 loss units; a daily job from 25m to 3 cores (7 steps up, 7 down) costs 8.2 a day, the
 * loss of 84 core-minutes of slack (8.2 / 0.098) or of 9 core-minutes of shortfall (8.2 / 0.902).
 */
export class ModelChangeCost {
  /** The level the updater would hold per predictor (NaN: none yet). */
  private readonly levels: number[];
  /** A running estimate of the sample interval, hours (NaN before the second sample). */
  private intervalHours = NaN;

  constructor(predictors: number) {
    // Plain arrays: a few numbers each (see cpu-target.ts).
    this.levels = new Array<number>(predictors).fill(NaN);
  }

  /** A sample `dtMs` after the previous one (0: the same time, e.g. another pod's). */
  tick(dtMs: number): void {
    if (!(dtMs > 0)) return;
    const hours = dtMs / 3_600_000;
    this.intervalHours = Number.isNaN(this.intervalHours) ? hours : 0.9 * this.intervalHours + 0.1 * hours;
  }

  /**
   * Predictor `k` predicts `p` now: the cost (loss units) of the changes the updater would make
   * to follow it, 0 when it stays within the drift band of its level.
   */
  cost(k: number, p: number, drift: number, maxStep: number, priceCoreHours: number, q: number): number {
    const level = this.levels[k]!;
    if (Number.isNaN(level) || !(level > 0)) {
      this.levels[k] = p;
      return 0;
    }
    if (Math.abs(p - level) <= drift * level || !(p > 0) || Number.isNaN(this.intervalHours)) return 0;
    this.levels[k] = p;
    const steps = Math.max(1, Math.ceil(Math.abs(Math.log(p / level)) / Math.log(maxStep) - 1e-9));
    return (steps * priceCoreHours * (1 - q)) / this.intervalHours;
  }
}
