/**
 * A quantile over a sliding time window, in O(1) amortised per sample and bounded memory: values
 * go into logarithmic buckets (each `ratio` wider than the last, so the answer is within that
 * relative error, 1% by default) and a ring of (time, bucket) lets old samples leave the window.
 * A cursor on the quantile's bucket moves only as far as each add or removal requires, so asking
 * for the quantile costs nothing.
 */

/** Bucket layout: bucket 0 holds [0, min]; bucket i > 0 holds (min r^(i-1), min r^i]. */
export interface LogBuckets {
  min: number;
  ratio: number;
  max: number;
}

export class SlidingQuantile {
  private readonly windowMs: number;
  private readonly q: number;
  private readonly min: number;
  private readonly logRatio: number;
  private readonly ratio: number;
  private readonly counts: Uint32Array;
  private ringTimes = new Float64Array(1024);
  private ringBuckets = new Uint16Array(1024);
  private head = 0;
  private size = 0;
  private cursor = 0;
  /** Sum of counts below the cursor's bucket. */
  private below = 0;

  /** `q` in (0, 1]; `windowMs` the window length; buckets default to 0.001 .. 1e6 at 1%. */
  constructor(q: number, windowMs: number, buckets: LogBuckets = { min: 0.001, ratio: 1.01, max: 1e6 }) {
    this.q = q;
    this.windowMs = windowMs;
    this.min = buckets.min;
    this.ratio = buckets.ratio;
    this.logRatio = Math.log(buckets.ratio);
    const n = Math.ceil(Math.log(buckets.max / buckets.min) / this.logRatio) + 1;
    if (n > 65_535) throw new RangeError(`too many buckets (${n})`);
    this.counts = new Uint32Array(n);
  }

  /** Samples in the window. */
  get count(): number {
    return this.size;
  }

  /** Adds `value` at time `at` (ms, non-decreasing) and drops samples older than at - window. */
  add(value: number, at: number): void {
    this.expire(at);
    if (this.size === this.ringTimes.length) this.grow();
    const bucket = this.bucketOf(value);
    const slot = (this.head + this.size) % this.ringTimes.length;
    this.ringTimes[slot] = at;
    this.ringBuckets[slot] = bucket;
    this.size++;
    this.counts[bucket] = (this.counts[bucket] ?? 0) + 1;
    if (bucket < this.cursor) this.below++;
    this.settle();
  }

  /** Drops samples at or before `now - window`. */
  expire(now: number): void {
    const oldest = now - this.windowMs;
    const cap = this.ringTimes.length;
    let removed = false;
    while (this.size > 0 && (this.ringTimes[this.head] ?? 0) <= oldest) {
      const bucket = this.ringBuckets[this.head] ?? 0;
      this.counts[bucket] = (this.counts[bucket] ?? 1) - 1;
      if (bucket < this.cursor) this.below--;
      this.head = (this.head + 1) % cap;
      this.size--;
      removed = true;
    }
    if (removed) this.settle();
  }

  /** The quantile of the window (upper edge of its bucket), or undefined when empty. */
  value(): number | undefined {
    if (this.size === 0) return undefined;
    return this.upperEdge(this.cursor);
  }

  private upperEdge(bucket: number): number {
    return this.min * Math.pow(this.ratio, bucket);
  }

  private bucketOf(value: number): number {
    if (!(value > this.min)) return 0;
    const b = Math.ceil(Math.log(value / this.min) / this.logRatio - 1e-9);
    return b >= this.counts.length ? this.counts.length - 1 : b;
  }

  /** Moves the cursor to the smallest bucket whose cumulative count reaches rank = ceil(q n). */
  private settle(): void {
    if (this.size === 0) {
      this.cursor = 0;
      this.below = 0;
      return;
    }
    const rank = Math.max(1, Math.ceil(this.q * this.size));
    const counts = this.counts;
    while (this.below + (counts[this.cursor] ?? 0) < rank) {
      this.below += counts[this.cursor] ?? 0;
      this.cursor++;
    }
    while (this.cursor > 0 && this.below >= rank) {
      this.cursor--;
      this.below -= counts[this.cursor] ?? 0;
    }
  }

  private grow(): void {
    const cap = this.ringTimes.length;
    const times = new Float64Array(cap * 2);
    const buckets = new Uint16Array(cap * 2);
    for (let i = 0; i < this.size; i++) {
      const from = (this.head + i) % cap;
      times[i] = this.ringTimes[from] ?? 0;
      buckets[i] = this.ringBuckets[from] ?? 0;
    }
    this.ringTimes = times;
    this.ringBuckets = buckets;
    this.head = 0;
  }
}
