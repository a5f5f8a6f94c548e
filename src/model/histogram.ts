/**
 * A weighted histogram over a bucketing scheme ({@link HistogramOptions}): each bucket holds the
 * total weight of the samples that fell into it. There is no interpolation inside a bucket.
 *
 * Storage is a Float64Array that covers only the window of buckets seen so far (plus a little
 * slack), allocated on the first sample and grown when a sample lands outside it. A container's CPU
 * usage typically spans 20-30 of the 176 buckets and its memory peaks fewer, so the bucket storage of
 * a tracked container is a few hundred bytes instead of 2 x 1408. Adding a sample is O(1) and allocates nothing
 * except on such a growth; percentiles are O(buckets in use).
 *
 * Bucket indices in the API are always absolute (0 .. numBuckets - 1).
 */
import type { HistogramOptions } from './histogram-options.ts';

/** Extra buckets allocated past the one that made the storage window grow, so growth stays rare. */
const GROWTH_SLACK = 4;

export class Histogram {
  private weights: Float64Array | undefined;
  /** Absolute index of weights[0]. */
  private offset = 0;
  private total = 0;
  /** First and last bucket whose weight is at least epsilon; min > max when there is none. */
  private min: number;
  private max = -1;

  constructor(readonly options: HistogramOptions) {
    this.min = options.numBuckets;
  }

  /** Sum of all weights, including buckets below epsilon. */
  get totalWeight(): number {
    return this.total;
  }

  /** First non-empty bucket, or -1 when the histogram is empty. */
  get minBucket(): number {
    return this.isEmpty() ? -1 : this.min;
  }

  /** Last non-empty bucket, or -1 when the histogram is empty. */
  get maxBucket(): number {
    return this.max;
  }

  /** True when no bucket holds at least epsilon of weight. */
  isEmpty(): boolean {
    return this.min > this.max;
  }

  /** Weight held by bucket `index` (0 outside the stored window). */
  bucketWeight(index: number): number {
    const w = this.weights;
    if (w === undefined) return 0;
    const i = index - this.offset;
    return i >= 0 && i < w.length ? w[i]! : 0;
  }

  /** Adds `weight` (>= 0) at `value`. */
  addSample(value: number, weight: number): void {
    this.addToBucket(this.options.findBucket(value), weight);
  }

  /** Adds `weight` (>= 0) to bucket `index` directly (used when loading checkpoints). */
  addToBucket(index: number, weight: number): void {
    if (!(weight >= 0) || weight === Infinity) throw new RangeError(`sample weight must be a finite number >= 0, got ${weight}`);
    const slot = this.slot(index);
    const w = this.weights!;
    const updated = w[slot]! + weight;
    w[slot] = updated;
    this.total += weight;
    if (updated >= this.options.epsilon) {
      if (index < this.min) this.min = index;
      if (index > this.max) this.max = index;
    }
  }

  /** Sets the total weight as a checkpoint stores it (used only right after loading one). */
  setTotalWeight(total: number): void {
    if (!(total >= 0) || total === Infinity) throw new RangeError(`total weight must be a finite number >= 0, got ${total}`);
    this.total = total;
  }

  /**
   * Removes `weight` at `value`; a bucket never goes below zero (a removal within epsilon of the
   * bucket's weight empties it).
   */
  subtractSample(value: number, weight: number): void {
    if (!(weight >= 0)) throw new RangeError(`sample weight must be >= 0, got ${weight}`);
    const w = this.weights;
    if (w === undefined) return;
    const slot = this.options.findBucket(value) - this.offset;
    if (slot < 0 || slot >= w.length) return;
    const current = w[slot]!;
    const removed = weight > current - this.options.epsilon ? current : weight;
    w[slot] = current - removed;
    this.total -= removed;
    if (this.total < 0) this.total = 0;
    this.shrinkRange();
  }

  /**
   * The value below which a fraction `p` of the weight lies, as the END of the bucket where the
   * cumulative weight first reaches p x total (the start of the last bucket if it is that one).
   * Returns 0 for an empty histogram.
   *
   * Worked number: linear buckets of size 1 holding weights {1: 1, 2: 2, 3: 3, 4: 4} (total 10):
   * p = 0.3 needs cumulative 3, reached in bucket 2 (1 + 2), so the answer is 3, the end of bucket 2.
   */
  percentile(p: number): number {
    if (this.isEmpty()) return 0;
    const w = this.weights!;
    const threshold = p * this.total;
    const offset = this.offset;
    let bucket = this.min;
    let partial = 0;
    for (; bucket < this.max; bucket++) {
      partial += w[bucket - offset]!;
      if (partial >= threshold) break;
    }
    const last = this.options.numBuckets - 1;
    return this.options.bucketStart(bucket < last ? bucket + 1 : bucket);
  }

  /**
   * Multiplies every weight by `factor` (>= 0). Percentiles do not change. Meant for shrinking (as
   * the decaying histogram uses it): a bucket that falls below epsilon leaves the non-empty range
   * and scaling up does not bring it back.
   */
  scale(factor: number): void {
    if (!(factor >= 0) || factor === Infinity) throw new RangeError(`scale factor must be a finite number >= 0, got ${factor}`);
    const w = this.weights;
    if (w === undefined) return;
    for (let i = 0; i < w.length; i++) w[i]! *= factor;
    this.total *= factor;
    this.shrinkRange();
  }

  /** Adds every bucket of `other`, multiplied by `factor`. Both must use the same options object. */
  merge(other: Histogram, factor = 1): void {
    if (other.options !== this.options) throw new Error('cannot merge histograms with different bucketing schemes');
    const ow = other.weights;
    if (ow === undefined) return;
    for (let i = 0; i < ow.length; i++) {
      const weight = ow[i]! * factor;
      if (weight > 0) this.addToBucket(i + other.offset, weight);
    }
  }

  /** Removes every sample. Keeps the storage. */
  clear(): void {
    this.weights?.fill(0);
    this.total = 0;
    this.min = this.options.numBuckets;
    this.max = -1;
  }

  /** Bytes held by the bucket storage (for memory accounting). */
  get storageBytes(): number {
    return this.weights?.byteLength ?? 0;
  }

  /** Index into `weights` for absolute bucket `index`, growing the storage window if needed. */
  private slot(index: number): number {
    const n = this.options.numBuckets;
    if (!Number.isInteger(index) || index < 0 || index >= n) throw new RangeError(`bucket index ${index} out of range [0, ${n - 1}]`);
    const w = this.weights;
    if (w !== undefined) {
      const i = index - this.offset;
      if (i >= 0 && i < w.length) return i;
    }
    this.grow(index);
    return index - this.offset;
  }

  /** Extends the storage window towards `index` (with some slack on that side only). */
  private grow(index: number): void {
    const n = this.options.numBuckets;
    const w = this.weights;
    let low: number;
    let high: number;
    if (w === undefined) {
      low = index - GROWTH_SLACK;
      high = index + GROWTH_SLACK;
    } else if (index < this.offset) {
      low = index - GROWTH_SLACK;
      high = this.offset + w.length - 1;
    } else {
      low = this.offset;
      high = index + GROWTH_SLACK;
    }
    low = Math.max(0, low);
    high = Math.min(n - 1, high);
    const grown = new Float64Array(high - low + 1);
    if (w !== undefined) grown.set(w, this.offset - low);
    this.weights = grown;
    this.offset = low;
  }

  /** Moves min/max inwards past buckets that fell below epsilon. */
  private shrinkRange(): void {
    const w = this.weights;
    if (w === undefined) return;
    const eps = this.options.epsilon;
    const offset = this.offset;
    while (this.min <= this.max && w[this.min - offset]! < eps) this.min++;
    while (this.max >= this.min && w[this.max - offset]! < eps) this.max--;
    if (this.min > this.max) {
      this.min = this.options.numBuckets;
      this.max = -1;
    }
  }
}
