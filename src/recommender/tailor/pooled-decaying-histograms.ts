/**
 * Decaying histograms over one bucket scheme, each with its own half-life (a CPU model's 24
 * hour-of-day histograms and its all-hours ones), stored together in ONE Uint16Array: first a few
 * fields per histogram, then every histogram's window of buckets in use (decisions 0160, 0260).
 *
 * A bucket holds its decayed weight as a 16-bit code in a per-histogram power-of-two unit: weight
 * = code x 2^e, where a sample at `at` weighs 2^(at / halfLife) (counted from the Unix epoch, so no
 * reference time has to move). When a bucket would pass 65,535 the histogram's codes are halved
 * (rounded to even) and e grows by one; a code that reaches 0 is an empty bucket (upstream's
 * epsilon). Fractions of a code are carried to the next sample of the same histogram, so a
 * histogram fed many small weights (a workload of many pods) loses no mass. Percentiles walk the
 * integer codes: they are those of a DecayingHistogram fed the same samples to within a code of
 * the largest bucket (1/32,768 of its weight); bench/tailor-identity.ts and `npm run bench:quality`
 * measure what that moves (docs/tailor-strategy.md, "In the cluster").
 *
 * Worked number: 24 hours whose samples span 21 buckets each hold 24 x 21 x 2 = 1,008 bytes of
 * codes plus 24 x 8 x 2 = 384 bytes of fields (was 4,800 + 1,056 bytes in float64).
 */
import type { HistogramOptions } from '../histogram-options.ts';

/** Fields per histogram at the front of `data`. */
const START = 0; // where its window starts in the code area (relative to the code area)
const OFFSET = 1; // first bucket stored
const LENGTH = 2; // buckets stored
const MIN = 3; // first non-empty bucket (numBuckets when empty)
const MAX = 4; // last non-empty bucket (0 when empty: MIN > MAX)
const EXP_LOW = 5; // e + 2^31, low and high 16 bits (0 and 0: no sample yet)
const EXP_HIGH = 6;
const CARRY = 7; // the fraction of a code not yet stored, x 65,536
const QUANTILE = 8; // the bucket of the last cached percentile (see cachePercentile); NO_BUCKET: none
const FIELDS = 9;
const NO_BUCKET = 65_535;
const TOP = 65_535;
/** A new sample's weight is kept at or below 2^FRESH codes (the rest of the range is room to add). */
const FRESH = 14;
const EXP_BIAS = 2 ** 31;

export class PooledDecayingHistograms {
  private readonly options: HistogramOptions;
  private readonly halfLivesMs: Float64Array;
  /** [fields of histogram 0 .. count - 1][codes of every window]. */
  private data: Uint16Array;

  /** One histogram per entry of `halfLivesMs`, histogram k with half-life halfLivesMs[k]. */
  constructor(halfLivesMs: readonly number[], options: HistogramOptions) {
    const count = halfLivesMs.length;
    if (options.numBuckets >= NO_BUCKET) throw new RangeError(`at most ${TOP} buckets, got ${options.numBuckets}`);
    for (const halfLifeMs of halfLivesMs) {
      if (!(Number.isFinite(halfLifeMs) && halfLifeMs > 0)) throw new RangeError(`half-life must be a positive number of ms, got ${halfLifeMs}`);
    }
    this.options = options;
    this.halfLivesMs = sharedHalfLives(halfLivesMs);
    this.data = new Uint16Array(count * FIELDS);
    for (let k = 0; k < count; k++) {
      this.data[k * FIELDS + MIN] = options.numBuckets;
      this.data[k * FIELDS + QUANTILE] = NO_BUCKET;
    }
  }

  /** How many histograms the pool holds. */
  get count(): number {
    return this.halfLivesMs.length;
  }

  /** Adds a sample of `value` (weight 1) at `at` (ms) to histogram `k`. */
  add(k: number, value: number, at: number): void {
    if (!Number.isFinite(at)) throw new RangeError(`sample time must be finite ms since epoch, got ${at}`);
    const m = k * FIELDS;
    const units = at / this.halfLivesMs[k]!;
    if (this.data[m + EXP_LOW] === 0 && this.data[m + EXP_HIGH] === 0) this.setExponent(k, Math.floor(units) - FRESH);
    // Keep the new weight under 2^(FRESH + 1) codes: older weight halves as time goes on.
    const over = Math.floor(units - this.exponent(k)) - FRESH;
    if (over > 0) this.shift(k, over);
    const index = this.options.findBucket(value);
    const slot = this.slotOf(k, index);
    const d = this.data; // after slotOf, which may replace the store
    let weight = 2 ** (units - this.exponent(k)) + d[m + CARRY]! / 65_536;
    while (d[slot]! + weight > TOP) {
      this.shift(k, 1);
      weight /= 2;
    }
    const whole = Math.floor(weight);
    d[m + CARRY] = Math.floor((weight - whole) * 65_536);
    if (whole === 0) return;
    d[slot] = d[slot]! + whole;
    if (index < d[m + MIN]!) d[m + MIN] = index;
    if (index > d[m + MAX]!) d[m + MAX] = index;
  }

  /** True when histogram `k` has no bucket with weight. */
  isEmpty(k: number): boolean {
    return this.data[k * FIELDS + MIN]! > this.data[k * FIELDS + MAX]!;
  }

  /**
   * Histogram `k`'s p-percentile (0 when empty): the end of the first bucket whose cumulative
   * weight reaches p x the total (the start of the last bucket if that is the one).
   */
  percentile(k: number, p: number): number {
    const bucket = this.percentileBucket(k, p);
    return bucket === NO_BUCKET ? 0 : this.options.bucketStart(bucket);
  }

  /** Stores histogram `k`'s p-percentile for {@link cachedPercentile} (kept in the store: no array per container). */
  cachePercentile(k: number, p: number): void {
    this.data[k * FIELDS + QUANTILE] = this.percentileBucket(k, p);
  }

  /** The percentile last stored by cachePercentile (0 when it was asked of an empty histogram or never). */
  cachedPercentile(k: number): number {
    const bucket = this.data[k * FIELDS + QUANTILE]!;
    return bucket === NO_BUCKET ? 0 : this.options.bucketStart(bucket);
  }

  /** The bucket whose start is histogram `k`'s p-percentile; NO_BUCKET when empty. */
  private percentileBucket(k: number, p: number): number {
    if (this.isEmpty(k)) return NO_BUCKET;
    const d = this.data;
    const m = k * FIELDS;
    const base = this.codeArea() + d[m + START]! - d[m + OFFSET]!;
    const min = d[m + MIN]!;
    const max = d[m + MAX]!;
    let total = 0;
    for (let b = min; b <= max; b++) total += d[base + b]!;
    const threshold = p * total;
    let bucket = min;
    let partial = 0;
    for (; bucket < max; bucket++) {
      partial += d[base + bucket]!;
      if (partial >= threshold) break;
    }
    const last = this.options.numBuckets - 1;
    return bucket < last ? bucket + 1 : bucket;
  }

  /** Bytes stored (fields and codes, for memory accounting). */
  get storageBytes(): number {
    return this.data.byteLength;
  }

  /** The whole store (for a saved state; see restoreStore). */
  get store(): Uint16Array {
    return this.data;
  }

  /** Installs a store taken from `store` of a pool built with the same half-lives and scheme; throws on one that cannot be. */
  restoreStore(store: Uint16Array): void {
    const fields = this.count * FIELDS;
    if (store.length < fields) throw new RangeError(`a pool of ${this.count} histograms needs at least ${fields} fields, got ${store.length}`);
    let end = fields;
    for (let k = 0; k < this.count; k++) {
      const m = k * FIELDS;
      const windowEnd = fields + store[m + START]! + store[m + LENGTH]!;
      if (store[m + OFFSET]! + store[m + LENGTH]! > this.options.numBuckets || windowEnd > store.length) throw new RangeError(`histogram ${k}'s window lies outside the store`);
      end = Math.max(end, windowEnd);
    }
    if (end !== store.length) throw new RangeError(`the store has ${store.length - end} codes beyond its windows`);
    this.data = store;
  }

  private codeArea(): number {
    return this.count * FIELDS;
  }

  private exponent(k: number): number {
    const m = k * FIELDS;
    return this.data[m + EXP_LOW]! + this.data[m + EXP_HIGH]! * 65_536 - EXP_BIAS;
  }

  private setExponent(k: number, e: number): void {
    const biased = e + EXP_BIAS;
    if (!(biased >= 1 && biased < 2 ** 32)) throw new RangeError(`sample time out of range for half-life ${this.halfLivesMs[k]} ms`);
    this.data[k * FIELDS + EXP_LOW] = biased % 65_536;
    this.data[k * FIELDS + EXP_HIGH] = Math.floor(biased / 65_536);
  }

  /** Divides histogram `k`'s codes by 2^bits (rounded to even), its unit grows to match. */
  private shift(k: number, bits: number): void {
    const d = this.data;
    const m = k * FIELDS;
    this.setExponent(k, this.exponent(k) + bits);
    d[m + CARRY] = bits >= 16 ? 0 : d[m + CARRY]! >>> bits;
    if (this.isEmpty(k)) return;
    const base = this.codeArea() + d[m + START]! - d[m + OFFSET]!;
    let min = d[m + MIN]!;
    let max = d[m + MAX]!;
    for (let b = min; b <= max; b++) d[base + b] = bits >= 17 ? 0 : halve(d[base + b]!, bits);
    // Move the non-empty range inwards past buckets that reached 0.
    while (min <= max && d[base + min] === 0) min++;
    while (max >= min && d[base + max] === 0) max--;
    if (min > max) {
      min = this.options.numBuckets;
      max = 0;
    }
    d[m + MIN] = min;
    d[m + MAX] = max;
  }

  /** Index in `data` of absolute bucket `index` of histogram `k`, widening its window if needed. */
  private slotOf(k: number, index: number): number {
    const n = this.options.numBuckets;
    if (!Number.isInteger(index) || index < 0 || index >= n) throw new RangeError(`bucket index ${index} out of range [0, ${n - 1}]`);
    const d = this.data;
    const m = k * FIELDS;
    const offset = d[m + OFFSET]!;
    const length = d[m + LENGTH]!;
    if (length > 0 && index >= offset && index < offset + length) return this.codeArea() + d[m + START]! + index - offset;
    // The window grows to the buckets in use (nothing kept beyond them: the store is small, a
    // widening copies it, and a histogram's range settles within its first days).
    const low = length === 0 ? index : Math.min(index, this.isEmpty(k) ? index : d[m + MIN]!);
    const high = length === 0 ? index : Math.max(index, this.isEmpty(k) ? index : d[m + MAX]!);
    this.resize(k, low, high - low + 1);
    return this.codeArea() + this.data[m + START]! + index - low;
  }

  /** Rebuilds the store with histogram `k`'s window set to `length` buckets from bucket `low` (its codes in [low, low + length) kept). */
  private resize(k: number, low: number, length: number): void {
    const old = this.data;
    const count = this.count;
    const fields = count * FIELDS;
    const codes = old.length - fields - old[k * FIELDS + LENGTH]! + length;
    if (codes > TOP) throw new RangeError(`the pool would hold ${codes} buckets, at most ${TOP}`);
    const data = new Uint16Array(fields + codes);
    data.set(old.subarray(0, fields));
    let next = 0;
    for (let j = 0; j < count; j++) {
      const m = j * FIELDS;
      const start = fields + old[m + START]!;
      const len = old[m + LENGTH]!;
      if (j === k) {
        const offset = old[m + OFFSET]!;
        // Copy the overlap of the old window and the new one.
        const from = Math.max(offset, low);
        const to = Math.min(offset + len, low + length);
        if (len > 0 && to > from) data.set(old.subarray(start + from - offset, start + to - offset), fields + next + from - low);
        data[m + OFFSET] = low;
        data[m + LENGTH] = length;
        data[m + START] = next;
        next += length;
      } else {
        data.set(old.subarray(start, start + len), fields + next);
        data[m + START] = next;
        next += len;
      }
    }
    this.data = data;
  }
}

/** code / 2^bits rounded half to even. */
function halve(code: number, bits: number): number {
  const q = code >>> bits;
  const r = code - (q << bits);
  const half = 1 << (bits - 1);
  return r > half || (r === half && (q & 1) === 1) ? q + 1 : q;
}

/** Half-life tables shared by every pool with the same half-lives (a CPU model has one per container otherwise). */
const halfLifeTables = new Map<string, Float64Array>();
function sharedHalfLives(halfLivesMs: readonly number[]): Float64Array {
  const key = halfLivesMs.join(',');
  let table = halfLifeTables.get(key);
  if (table === undefined) halfLifeTables.set(key, (table = Float64Array.from(halfLivesMs)));
  return table;
}
