/**
 * The CPU samples of the last `windowMs` (30 min by default), for the surge check's median and
 * p90.2: a ring of samples, each its time (whole seconds after a base) and bucket packed in 32 bits,
 * sized to the samples in the window (grown x2 from 16: 32 = 128 bytes for 1-minute samples), and the quantile found by sorting those few buckets.
 *
 * It answers exactly what two {@link SlidingQuantile}s (src/model/sliding-quantile.ts) with the
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
/** A sample is (seconds after the base) x BUCKET_SPAN + bucket in 32 bits: 12 bits of bucket, 20 of seconds. */
const BUCKET_BITS = 12;
const BUCKET_SPAN = 2 ** BUCKET_BITS;
const OFFSETS = 2 ** (32 - BUCKET_BITS);
/** The window must leave room in the seconds for a rebase: at most half of them (6 days). */
const MAX_WINDOW_MS = (OFFSETS / 2) * 1000;
if (BUCKETS > BUCKET_SPAN) throw new Error(`${BUCKETS} buckets do not fit in ${BUCKET_BITS} bits`);

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
  /** Ring of samples, each (seconds after `base`) x 4096 + its bucket. */
  private ring = new Uint32Array(INITIAL_CAPACITY);
  /** Times in the ring count from here (whole seconds); moved forward before they would not fit. */
  private base = 0;
  private head = 0;
  private size = 0;

  constructor(windowMs: number) {
    if (!(windowMs >= 0 && windowMs < MAX_WINDOW_MS)) throw new RangeError(`the window must be 0 to ${MAX_WINDOW_MS} ms, got ${windowMs}`);
    this.windowMs = windowMs;
  }

  /** Samples in the window. */
  get count(): number {
    return this.size;
  }

  /**
   * Adds `value` at `at` (ms, non-decreasing) and drops samples at or before at - window. Times
   * are kept in whole seconds (Prometheus steps and trace intervals are): a time between two
   * seconds counts as the later one.
   */
  add(value: number, at: number): void {
    this.expire(at);
    if (this.size === this.ring.length) this.grow();
    const seconds = Math.ceil(at / 1000);
    if (this.size === 0 || !(seconds - this.base < OFFSETS)) this.rebase(seconds);
    this.ring[(this.head + this.size) % this.ring.length] = (seconds - this.base) * BUCKET_SPAN + bucketOf(value);
    this.size++;
  }

  /** Drops samples at or before `now - window`. */
  expire(now: number): void {
    const oldest = (now - this.windowMs) / 1000 - this.base;
    const capacity = this.ring.length;
    while (this.size > 0 && this.ring[this.head]! >>> BUCKET_BITS <= oldest) {
      this.head = (this.head + 1) % capacity;
      this.size--;
    }
  }

  /** The q-quantile of the window (upper edge of its bucket), or undefined when empty. */
  quantile(q: number): number | undefined {
    const n = this.size;
    if (n === 0) return undefined;
    if (scratch.length < n) scratch = new Float64Array(this.ring.length);
    const capacity = this.ring.length;
    for (let i = 0; i < n; i++) scratch[i] = this.ring[(this.head + i) % capacity]! & (BUCKET_SPAN - 1);
    const sorted = scratch.subarray(0, n).sort();
    const rank = Math.max(1, Math.ceil(q * n));
    return MIN * Math.pow(RATIO, sorted[rank - 1]!);
  }

  /** Times count from `seconds` (empty ring) or from the oldest sample held. */
  private rebase(seconds: number): void {
    const capacity = this.ring.length;
    const to = this.size === 0 ? seconds : this.base + (this.ring[this.head]! >>> BUCKET_BITS);
    const delta = (to - this.base) * BUCKET_SPAN;
    for (let i = 0; i < this.size; i++) this.ring[(this.head + i) % capacity]! -= delta;
    this.base = to;
  }

  private grow(): void {
    const capacity = this.ring.length;
    const grown = new Uint32Array(2 * capacity);
    for (let i = 0; i < this.size; i++) grown[i] = this.ring[(this.head + i) % capacity]!;
    this.ring = grown;
    this.head = 0;
  }
}
