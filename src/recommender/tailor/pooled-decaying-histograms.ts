/**
 * Decaying histograms over one bucket scheme, each with its own half-life (a CPU model's 24
 * hour-of-day histograms and its all-hours one), stored together: every histogram's window of buckets in use sits in one shared
 * Float64Array, and their totals, reference times and bounds in a few small arrays. Histogram `k`
 * behaves exactly as a DecayingHistogram (src/recommender/decaying-histogram.ts) fed the same samples (same float operations in the
 * same order, so the same percentiles to the last bit), without 24 x 3 objects and 24 typed arrays
 * (~15 KiB per container with 1-minute samples; decision 0160).
 *
 * Worked number: 24 hours whose samples span 21 buckets each hold 24 x (21 + 2 x 2 slack) x 8 =
 * 4,800 bytes of weights, plus 24 x (3 x 8 + 5 x 4) = 1,056 bytes of bookkeeping.
 */
import { MAX_DECAY_EXPONENT } from '../decaying-histogram.ts';
import type { HistogramOptions } from '../histogram-options.ts';

/** Buckets added past the one that made a window grow (storage only: the answers do not depend on it). */
const SLACK = 2;
/** Fields per histogram in `meta`: pool start, first bucket stored, buckets stored, first and last non-empty bucket. */
const START = 0;
const OFFSET = 1;
const LENGTH = 2;
const MIN = 3;
const MAX = 4;
const FIELDS = 5;

export class PooledDecayingHistograms {
  private readonly options: HistogramOptions;
  private pool = new Float64Array(0);
  private readonly meta: Int32Array;
  /** Per histogram: total weight, reference time (NaN before the first sample), half-life (ms). */
  private readonly sums: Float64Array;

  /** One histogram per entry of `halfLivesMs`, histogram k with half-life halfLivesMs[k]. */
  constructor(halfLivesMs: readonly number[], options: HistogramOptions) {
    const count = halfLivesMs.length;
    this.options = options;
    this.meta = new Int32Array(count * FIELDS);
    this.sums = new Float64Array(count * 3);
    for (let k = 0; k < count; k++) {
      const halfLifeMs = halfLivesMs[k]!;
      if (!(Number.isFinite(halfLifeMs) && halfLifeMs > 0)) throw new RangeError(`half-life must be a positive number of ms, got ${halfLifeMs}`);
      this.meta[k * FIELDS + MIN] = options.numBuckets;
      this.meta[k * FIELDS + MAX] = -1;
      this.sums[3 * k + 1] = NaN;
      this.sums[3 * k + 2] = halfLifeMs;
    }
  }

  /** How many histograms the pool holds. */
  get count(): number {
    return this.meta.length / FIELDS;
  }

  /** Adds a sample of `value` (weight 1) at `at` (ms) to histogram `k`. */
  add(k: number, value: number, at: number): void {
    if (!Number.isFinite(at)) throw new RangeError(`sample time must be finite ms since epoch, got ${at}`);
    const reference = this.sums[3 * k + 1]!;
    const halfLife = this.sums[3 * k + 2]!;
    if (Number.isNaN(reference) || at > reference + halfLife * MAX_DECAY_EXPONENT) this.shiftReference(k, at);
    const weight = 2 ** ((at - this.sums[3 * k + 1]!) / halfLife);
    if (!(weight >= 0) || weight === Infinity) throw new RangeError(`sample weight must be a finite number >= 0, got ${weight}`);
    const index = this.options.findBucket(value);
    const at0 = this.slotOf(k, index);
    const updated = this.pool[at0]! + weight;
    this.pool[at0] = updated;
    this.sums[3 * k] = this.sums[3 * k]! + weight;
    if (updated >= this.options.epsilon) {
      const m = k * FIELDS;
      if (index < this.meta[m + MIN]!) this.meta[m + MIN] = index;
      if (index > this.meta[m + MAX]!) this.meta[m + MAX] = index;
    }
  }

  /** True when histogram `k` has no bucket with at least epsilon of weight. */
  isEmpty(k: number): boolean {
    return this.meta[k * FIELDS + MIN]! > this.meta[k * FIELDS + MAX]!;
  }

  /** Histogram `k`'s p-percentile, as DecayingHistogram.percentile (0 when empty). */
  percentile(k: number, p: number): number {
    if (this.isEmpty(k)) return 0;
    const m = k * FIELDS;
    const base = this.meta[m + START]! - this.meta[m + OFFSET]!;
    const max = this.meta[m + MAX]!;
    const threshold = p * this.sums[3 * k]!;
    const pool = this.pool;
    let bucket = this.meta[m + MIN]!;
    let partial = 0;
    for (; bucket < max; bucket++) {
      partial += pool[base + bucket]!;
      if (partial >= threshold) break;
    }
    const last = this.options.numBuckets - 1;
    return this.options.bucketStart(bucket < last ? bucket + 1 : bucket);
  }

  /** Bytes of weights stored (for memory accounting). */
  get storageBytes(): number {
    return this.pool.byteLength;
  }

  /** Moves histogram `k`'s reference to `to` rounded to whole half-lives, rescaling its weights. */
  private shiftReference(k: number, to: number): void {
    const halfLife = this.sums[3 * k + 2]!;
    const rounded = Math.round(to / halfLife) * halfLife;
    const reference = this.sums[3 * k + 1]!;
    if (!Number.isNaN(reference)) this.scale(k, 2 ** Math.round((reference - rounded) / halfLife));
    this.sums[3 * k + 1] = rounded;
  }

  private scale(k: number, factor: number): void {
    const m = k * FIELDS;
    const start = this.meta[m + START]!;
    const end = start + this.meta[m + LENGTH]!;
    for (let i = start; i < end; i++) this.pool[i]! *= factor;
    this.sums[3 * k] = this.sums[3 * k]! * factor;
    // Move the non-empty range inwards past buckets that fell below epsilon.
    const eps = this.options.epsilon;
    const base = start - this.meta[m + OFFSET]!;
    let min = this.meta[m + MIN]!;
    let max = this.meta[m + MAX]!;
    while (min <= max && this.pool[base + min]! < eps) min++;
    while (max >= min && this.pool[base + max]! < eps) max--;
    if (min > max) {
      min = this.options.numBuckets;
      max = -1;
    }
    this.meta[m + MIN] = min;
    this.meta[m + MAX] = max;
  }

  /** Pool index of absolute bucket `index` of histogram `k`, widening its window if needed. */
  private slotOf(k: number, index: number): number {
    const n = this.options.numBuckets;
    if (!Number.isInteger(index) || index < 0 || index >= n) throw new RangeError(`bucket index ${index} out of range [0, ${n - 1}]`);
    const m = k * FIELDS;
    const offset = this.meta[m + OFFSET]!;
    const length = this.meta[m + LENGTH]!;
    if (length > 0 && index >= offset && index < offset + length) return this.meta[m + START]! + index - offset;
    let low: number;
    let high: number;
    if (length === 0) {
      low = index - SLACK;
      high = index + SLACK;
    } else if (index < offset) {
      low = index - SLACK;
      high = offset + length - 1;
    } else {
      low = offset;
      high = index + SLACK;
    }
    low = Math.max(0, low);
    high = Math.min(n - 1, high);
    this.resize(k, low, high - low + 1);
    return this.meta[m + START]! + index - low;
  }

  /** Rebuilds the pool with histogram `k`'s window set to `length` buckets from bucket `low`. */
  private resize(k: number, low: number, length: number): void {
    const meta = this.meta;
    const count = meta.length / FIELDS;
    const old = this.pool;
    const pool = new Float64Array(old.length - meta[k * FIELDS + LENGTH]! + length);
    let next = 0;
    for (let j = 0; j < count; j++) {
      const m = j * FIELDS;
      const start = meta[m + START]!;
      const len = meta[m + LENGTH]!;
      if (j === k) {
        if (len > 0) pool.set(old.subarray(start, start + len), next + meta[m + OFFSET]! - low);
        meta[m + OFFSET] = low;
        meta[m + LENGTH] = length;
        meta[m + START] = next;
        next += length;
      } else {
        pool.set(old.subarray(start, start + len), next);
        meta[m + START] = next;
        next += len;
      }
    }
    this.pool = pool;
  }
}

