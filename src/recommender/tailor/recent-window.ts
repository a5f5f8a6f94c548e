/**
 * The CPU samples of the last `windowMs` (30 min by default), for the surge check's median and
 * p90.2: a ring of (time, bucket) int32 pairs sized to the samples in the window (grown x2 from 16
 * pairs: 32 pairs = 256 bytes for 1-minute samples; times in ms after a base), and the quantile found by sorting those few buckets.
 *
 * It answers exactly what two {@link SlidingQuantile}s (src/recommender/sliding-quantile.ts) with the
 * default buckets answer — the upper edge of the bucket of the ceil(q x n)-th smallest sample,
 * buckets 0.001 x 1.01^i cores — without their 2,083-bucket count arrays and 1,024-pair rings
 * (~19 KiB each; decision 0160). Worked number: window samples 0.10, 0.30, 0.20 cores, q = 0.5:
 * rank ceil(1.5) = 2, the 2nd smallest is 0.20 in bucket ceil(ln(200)/ln(1.01)) = 533, whose
 * upper edge 0.001 x 1.01^533 is 0.2010 cores.
 */

/** The bucket scheme of SlidingQuantile's defaults: bucket 0 holds [0, MIN], bucket i (MIN r^(i-1), MIN r^i]. */
const MIN = 0.001;
const RATIO = 1.01;
const MAX = 1e6;
const LOG_RATIO = Math.log(RATIO);
const BUCKETS = Math.ceil(Math.log(MAX / MIN) / LOG_RATIO) + 1;
const INITIAL_CAPACITY = 16;
/** Times are rebased before they pass this many ms after the base (int32 holds 2^31 - 1). */
const REBASE_AFTER = 2 ** 30;

/** Scratch space for sorting a window's buckets, shared by every window (JS runs one at a time). */
let scratch = new Float64Array(INITIAL_CAPACITY);

/** The bucket of `value` (cores), as SlidingQuantile computes it. */
function bucketOf(value: number): number {
  if (!(value > MIN)) return 0;
  const b = Math.ceil(Math.log(value / MIN) / LOG_RATIO - 1e-9);
  return b >= BUCKETS ? BUCKETS - 1 : b;
}

export class RecentWindow {
  private readonly windowMs: number;
  /** Ring of pairs: ring[2k] the time (ms after `base`), ring[2k + 1] the bucket. */
  private ring = new Int32Array(2 * INITIAL_CAPACITY);
  /** Times in the ring count from here (ms); moved forward when they would leave int32. */
  private base = NaN;
  private head = 0;
  private size = 0;

  constructor(windowMs: number) {
    if (!(windowMs >= 0 && windowMs < REBASE_AFTER)) throw new RangeError(`the window must be 0 to ${REBASE_AFTER} ms, got ${windowMs}`);
    this.windowMs = windowMs;
  }

  /** Samples in the window. */
  get count(): number {
    return this.size;
  }

  /**
   * Adds `value` at `at` (ms, non-decreasing) and drops samples at or before at - window. A time
   * that is not a whole ms is kept as the next whole ms.
   */
  add(value: number, at: number): void {
    this.expire(at);
    const capacity = this.ring.length / 2;
    if (this.size === capacity) this.grow();
    if (this.size === 0 || !(at - this.base < REBASE_AFTER)) this.rebase(at);
    const slot = (this.head + this.size) % (this.ring.length / 2);
    this.ring[2 * slot] = Math.ceil(at - this.base);
    this.ring[2 * slot + 1] = bucketOf(value);
    this.size++;
  }

  /** Drops samples at or before `now - window`. */
  expire(now: number): void {
    const oldest = now - this.windowMs - this.base;
    const capacity = this.ring.length / 2;
    while (this.size > 0 && this.ring[2 * this.head]! <= oldest) {
      this.head = (this.head + 1) % capacity;
      this.size--;
    }
  }

  /** The q-quantile of the window (upper edge of its bucket), or undefined when empty. */
  quantile(q: number): number | undefined {
    const n = this.size;
    if (n === 0) return undefined;
    if (scratch.length < n) scratch = new Float64Array(this.ring.length / 2);
    const capacity = this.ring.length / 2;
    for (let i = 0; i < n; i++) scratch[i] = this.ring[2 * ((this.head + i) % capacity) + 1]!;
    const sorted = scratch.subarray(0, n).sort();
    const rank = Math.max(1, Math.ceil(q * n));
    return MIN * Math.pow(RATIO, sorted[rank - 1]!);
  }

  /** Times count from `at` (empty ring) or from the oldest sample held. */
  private rebase(at: number): void {
    const capacity = this.ring.length / 2;
    const to = this.size === 0 ? at : this.base + this.ring[2 * this.head]!;
    const delta = to - this.base;
    for (let i = 0; i < this.size; i++) this.ring[2 * ((this.head + i) % capacity)]! -= delta;
    this.base = to;
  }

  private grow(): void {
    const capacity = this.ring.length / 2;
    const grown = new Int32Array(4 * capacity); // 2 x the pairs
    for (let i = 0; i < this.size; i++) {
      const from = (this.head + i) % capacity;
      grown[2 * i] = this.ring[2 * from]!;
      grown[2 * i + 1] = this.ring[2 * from + 1]!;
    }
    this.ring = grown;
    this.head = 0;
  }
}
