/**
 * Bucketing schemes for histograms: how many buckets there are, where each starts, and which bucket
 * a value falls into.
 *
 * Bucket starts are computed once per scheme into a Float64Array, so finding a bucket and reading
 * its edges costs one logarithm and two array reads, and every histogram using the scheme shares
 * the table.
 */

/** A bucketing scheme. Bucket `i` covers [start(i), start(i + 1)); the last bucket is open-ended. */
export interface HistogramOptions {
  /** Number of buckets. */
  readonly numBuckets: number;
  /** Minimum weight for a bucket to count as non-empty. */
  readonly epsilon: number;
  /** Index of the bucket holding `value`; values outside the range go to the first or last bucket. */
  findBucket(value: number): number;
  /** Start (inclusive lower edge) of bucket `index`, 0 <= index < numBuckets. */
  bucketStart(index: number): number;
}

/** An invalid bucketing scheme (a non-positive size, a ratio <= 1, ...). */
export class HistogramOptionsError extends Error {
  override readonly name = 'HistogramOptionsError';
}

function requirePositive(name: string, value: number): void {
  if (!(Number.isFinite(value) && value > 0)) throw new HistogramOptionsError(`${name} must be a positive finite number, got ${value}`);
}

/** Shared implementation: a precomputed table of bucket starts and an approximate index function. */
class TabulatedOptions implements HistogramOptions {
  readonly numBuckets: number;
  private readonly starts: Float64Array;

  constructor(
    starts: Float64Array,
    readonly epsilon: number,
    private readonly approximateIndex: (value: number) => number,
  ) {
    this.starts = starts;
    this.numBuckets = starts.length;
  }

  findBucket(value: number): number {
    if (!(value > 0)) return 0; // also catches NaN
    const last = this.numBuckets - 1;
    let index = Math.floor(this.approximateIndex(value));
    if (index >= last) index = last;
    else if (index < 0) index = 0;
    // The logarithm can be off by one ulp at an exact edge: settle it against the table, so that
    // findBucket(bucketStart(i)) === i always holds.
    const starts = this.starts;
    if (index < last && value >= starts[index + 1]!) index++;
    else if (index > 0 && value < starts[index]!) index--;
    return index;
  }

  bucketStart(index: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= this.numBuckets) {
      throw new RangeError(`bucket index ${index} out of range [0, ${this.numBuckets - 1}]`);
    }
    return this.starts[index]!;
  }
}

/**
 * Exponential buckets: the first covers [0, firstBucketSize), and each next bucket is `ratio` times
 * wider than the previous one, so bucket n >= 1 starts at firstBucketSize x (ratio^n - 1)/(ratio - 1).
 * There are just enough buckets for the last one to start at or above `maxValue`.
 *
 * Worked number: the upstream CPU scheme (first 0.01 core, ratio 1.05, max 1000 cores) has
 * ceil(log(1000 x 0.05/0.01 + 1)/log(1.05)) + 1 = ceil(174.57) + 1 = 176 buckets; bucket 1 starts
 * at 0.01 core, bucket 2 at 0.0205, bucket 175 (the last, open-ended) at ~1021 cores.
 */
export function exponentialHistogramOptions(maxValue: number, firstBucketSize: number, ratio: number, epsilon: number): HistogramOptions {
  requirePositive('maxValue', maxValue);
  requirePositive('firstBucketSize', firstBucketSize);
  requirePositive('epsilon', epsilon);
  if (!(Number.isFinite(ratio) && ratio > 1)) throw new HistogramOptionsError(`ratio must be a finite number > 1, got ${ratio}`);
  const logRatio = Math.log(ratio);
  const numBuckets = Math.ceil(Math.log((maxValue * (ratio - 1)) / firstBucketSize + 1) / logRatio) + 1;
  const starts = new Float64Array(numBuckets);
  for (let i = 1; i < numBuckets; i++) starts[i] = (firstBucketSize * (ratio ** i - 1)) / (ratio - 1);
  const scale = (ratio - 1) / firstBucketSize;
  return new TabulatedOptions(starts, epsilon, (value) => Math.log(value * scale + 1) / logRatio);
}

/**
 * Linear buckets of equal size starting at 0, with the last bucket starting at or above `maxValue`
 * (ceil(maxValue/bucketSize) + 1 buckets). Mostly useful in tests: the numbers are easy to follow.
 */
export function linearHistogramOptions(maxValue: number, bucketSize: number, epsilon: number): HistogramOptions {
  requirePositive('maxValue', maxValue);
  requirePositive('bucketSize', bucketSize);
  requirePositive('epsilon', epsilon);
  const numBuckets = Math.ceil(maxValue / bucketSize) + 1;
  const starts = new Float64Array(numBuckets);
  for (let i = 1; i < numBuckets; i++) starts[i] = i * bucketSize;
  return new TabulatedOptions(starts, epsilon, (value) => value / bucketSize);
}
