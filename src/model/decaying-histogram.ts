/**
 * A histogram that forgets: a sample added at time t weighs weight x 2^((t - reference)/halfLife),
 * so a sample one half-life older than another counts half as much. Only relative weights matter
 * for percentiles, so the reference time can move at any moment by rescaling all weights.
 *
 * Worked number (half-life 24h): a sample at the reference time with weight 0.1 stores 0.1; one
 * added 3 days later stores 0.1 x 2^3 = 0.8, so the older one now counts 1/8 as much.
 *
 * Keeping numbers finite: when a sample arrives more than `maxDecayExponent` half-lives (100 by
 * default) after the reference, the reference moves to that sample's time rounded to a whole
 * multiple of the half-life (counted from the Unix epoch, so for 24h it is a UTC midnight) and every
 * stored weight is multiplied by 2^-(shift in half-lives). Weights therefore stay below
 * 2^100 x (sum of raw weights), far from the float64 limit (~2^1024).
 */
import { Histogram } from './histogram.ts';
import type { HistogramOptions } from './histogram-options.ts';

/** Default exponent after which the reference time is moved forward (as upstream). */
export const MAX_DECAY_EXPONENT = 100;

export class DecayingHistogram {
  readonly histogram: Histogram;
  /** Reference time (ms since epoch); undefined until the first sample or checkpoint. */
  private reference: number | undefined;

  constructor(
    options: HistogramOptions,
    readonly halfLifeMs: number,
    readonly maxDecayExponent = MAX_DECAY_EXPONENT,
  ) {
    if (!(Number.isFinite(halfLifeMs) && halfLifeMs > 0)) throw new RangeError(`half-life must be a positive number of ms, got ${halfLifeMs}`);
    if (!(maxDecayExponent > 0 && maxDecayExponent <= 500)) throw new RangeError(`maxDecayExponent must be in (0, 500], got ${maxDecayExponent}`);
    this.histogram = new Histogram(options);
  }

  get options(): HistogramOptions {
    return this.histogram.options;
  }

  /** The reference time in ms since the epoch, or undefined for a histogram that never saw a sample. */
  get referenceTime(): number | undefined {
    return this.reference;
  }

  /** Sum of the stored (decay-scaled) weights. */
  get totalWeight(): number {
    return this.histogram.totalWeight;
  }

  /** Adds a sample of `value` with `weight` at time `at` (ms since epoch). */
  addSample(value: number, weight: number, at: number): void {
    this.histogram.addSample(value, weight * this.decayFactor(at));
  }

  /** Removes a sample previously added with the same value, weight and time. */
  subtractSample(value: number, weight: number, at: number): void {
    this.histogram.subtractSample(value, weight * this.decayFactor(at));
  }

  /** See {@link Histogram.percentile}; decay does not depend on "now", only on relative sample times. */
  percentile(p: number): number {
    return this.histogram.percentile(p);
  }

  isEmpty(): boolean {
    return this.histogram.isEmpty();
  }

  /**
   * Adds all samples of `other` (same options and half-life). The older reference is aligned to the
   * newer one; `other` is not modified.
   */
  merge(other: DecayingHistogram): void {
    if (other.halfLifeMs !== this.halfLifeMs) throw new Error('cannot merge decaying histograms with different half-lives');
    if (other.reference === undefined) return;
    if (this.reference === undefined || this.reference < other.reference) this.shiftReference(other.reference);
    const shift = Math.round((other.reference - this.reference!) / this.halfLifeMs);
    this.histogram.merge(other.histogram, 2 ** shift);
  }

  /**
   * Sets the reference time, e.g. from a checkpoint. Use only on an empty histogram or right after
   * loading weights that were stored relative to this reference.
   */
  setReferenceTime(reference: number): void {
    if (!Number.isFinite(reference)) throw new RangeError(`reference time must be finite, got ${reference}`);
    this.reference = reference;
  }

  /** The multiplier for a sample at `at`, moving the reference forward first if it is too old. */
  private decayFactor(at: number): number {
    if (!Number.isFinite(at)) throw new RangeError(`sample time must be finite ms since epoch, got ${at}`);
    const reference = this.reference;
    if (reference === undefined || at > reference + this.halfLifeMs * this.maxDecayExponent) this.shiftReference(at);
    return 2 ** ((at - this.reference!) / this.halfLifeMs);
  }

  /** Moves the reference to `to` rounded to a whole number of half-lives, rescaling the weights. */
  private shiftReference(to: number): void {
    const halfLife = this.halfLifeMs;
    const rounded = Math.round(to / halfLife) * halfLife;
    if (this.reference !== undefined) {
      const exponent = Math.round((this.reference - rounded) / halfLife);
      // 2^exponent underflows to 0 for very old data, which is what it deserves.
      this.histogram.scale(2 ** exponent);
    } else {
      this.histogram.clear();
    }
    this.reference = rounded;
  }
}
