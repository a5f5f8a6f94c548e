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
 * codes plus 24 x 6 x 2 = 288 bytes of fields (was 4,800 + 1,056 bytes in float64).
 */
import type { HistogramOptions } from '../histogram-options.ts';

/**
 * Fields per histogram at the front of `data`. A histogram's window of buckets is exactly its
 * non-empty range (its first and last codes are not 0; LENGTH 0: empty), and the windows follow
 * each other in histogram order, so where a window starts is the sum of the lengths before it.
 */
const OFFSET = 0; // first bucket stored
const LENGTH = 1; // buckets stored
const EXP_LOW = 2; // e + 2^31, low and high 16 bits (0 and 0: no sample yet)
const EXP_HIGH = 3;
const CARRY = 4; // the fraction of a code not yet stored, x 65,536
const QUANTILE = 5; // the bucket of the last cached percentile (see cachePercentile); NO_BUCKET: none
const FIELDS = 6;
const NO_BUCKET = 65_535;
const TOP = 65_535;
/** A new sample's weight is kept under 2^(FRESH + 1) codes (the rest of the range is room to add). */
const FRESH = 14;
const EXP_BIAS = 2 ** 31;

export class PooledDecayingHistograms {
  private readonly options: HistogramOptions;
  private readonly halfLivesMs: Float64Array;
  /** [fields of histogram 0 .. count - 1][codes of every window, in histogram order]. */
  private data: Uint16Array;

  /** One histogram per entry of `halfLivesMs`, histogram k with half-life halfLivesMs[k]. */
  constructor(halfLivesMs: readonly number[], options: HistogramOptions) {
    const count = halfLivesMs.length;
    if (options.numBuckets >= NO_BUCKET) throw new RangeError(`at most ${NO_BUCKET - 1} buckets, got ${options.numBuckets}`);
    for (const halfLifeMs of halfLivesMs) {
      if (!(Number.isFinite(halfLifeMs) && halfLifeMs > 0)) throw new RangeError(`half-life must be a positive number of ms, got ${halfLifeMs}`);
    }
    this.options = options;
    this.halfLivesMs = sharedHalfLives(halfLivesMs);
    this.data = new Uint16Array(count * FIELDS);
    for (let k = 0; k < count; k++) this.data[k * FIELDS + QUANTILE] = NO_BUCKET;
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
    let e = this.exponent(k);
    const over = Math.floor(units - e) - FRESH;
    if (over > 0) {
      this.shift(k, over);
      e += over;
    }
    const index = this.options.findBucket(value);
    let weight = 2 ** (units - e) + this.data[m + CARRY]! / 65_536;
    let slot = this.slotIn(k, index);
    while ((slot < 0 ? 0 : this.data[slot]!) + weight > TOP) {
      this.shift(k, 1);
      weight /= 2;
      slot = this.slotIn(k, index);
    }
    const whole = Math.floor(weight);
    this.data[m + CARRY] = Math.floor((weight - whole) * 65_536);
    if (whole === 0) return;
    if (slot < 0) slot = this.slotOf(k, index);
    this.data[slot] = this.data[slot]! + whole;
  }

  /** True when histogram `k` has no bucket with weight. */
  isEmpty(k: number): boolean {
    return this.data[k * FIELDS + LENGTH] === 0;
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
    const start = this.startOf(k);
    const length = d[m + LENGTH]!;
    let total = 0;
    for (let i = 0; i < length; i++) total += d[start + i]!;
    const threshold = p * total;
    let i = 0;
    let partial = 0;
    for (; i < length - 1; i++) {
      partial += d[start + i]!;
      if (partial >= threshold) break;
    }
    const bucket = d[m + OFFSET]! + i;
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
      const length = store[m + LENGTH]!;
      if (store[m + OFFSET]! + length > this.options.numBuckets) throw new RangeError(`histogram ${k}'s window lies outside the bucket scheme`);
      if (length > 0 && (store[end] === 0 || store[end + length - 1] === 0)) throw new RangeError(`histogram ${k}'s window has an empty edge`);
      end += length;
    }
    if (end !== store.length) throw new RangeError(`the store holds ${store.length} entries, its windows ${end}`);
    this.data = store;
  }

  /** For a restored state (model-state.ts): the store is checked before it is installed. */
  restoreField(key: string, value: unknown): void {
    if (key === 'data' && value instanceof Uint16Array) this.restoreStore(value);
    else throw new RangeError(`${key} is not part of a pool's state`);
  }

  /** Where histogram `k`'s window starts in `data`. */
  private startOf(k: number): number {
    let start = this.count * FIELDS;
    for (let j = 0; j < k; j++) start += this.data[j * FIELDS + LENGTH]!;
    return start;
  }

  /** Index in `data` of absolute bucket `index` of histogram `k`, or -1 outside its window. */
  private slotIn(k: number, index: number): number {
    const m = k * FIELDS;
    const offset = this.data[m + OFFSET]!;
    return index >= offset && index < offset + this.data[m + LENGTH]! ? this.startOf(k) + index - offset : -1;
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

  /** Divides histogram `k`'s codes by 2^bits (rounded to even), its unit grows to match; edges that reach 0 leave the window. */
  private shift(k: number, bits: number): void {
    const d = this.data;
    const m = k * FIELDS;
    this.setExponent(k, this.exponent(k) + bits);
    d[m + CARRY] = bits >= 16 ? 0 : d[m + CARRY]! >>> bits;
    const length = d[m + LENGTH]!;
    if (length === 0) return;
    const start = this.startOf(k);
    for (let i = start; i < start + length; i++) d[i] = bits >= 17 ? 0 : halve(d[i]!, bits);
    let first = 0;
    let last = length - 1;
    while (first <= last && d[start + first] === 0) first++;
    while (last >= first && d[start + last] === 0) last--;
    if (first > 0 || last < length - 1) this.resize(k, first > last ? 0 : d[m + OFFSET]! + first, first > last ? 0 : last - first + 1);
  }

  /** Index in `data` of absolute bucket `index` of histogram `k`, widening its window if needed. */
  private slotOf(k: number, index: number): number {
    const n = this.options.numBuckets;
    if (!Number.isInteger(index) || index < 0 || index >= n) throw new RangeError(`bucket index ${index} out of range [0, ${n - 1}]`);
    const m = k * FIELDS;
    const offset = this.data[m + OFFSET]!;
    const length = this.data[m + LENGTH]!;
    if (length > 0 && index >= offset && index < offset + length) return this.startOf(k) + index - offset;
    const low = length === 0 ? index : Math.min(index, offset);
    const high = length === 0 ? index : Math.max(index, offset + length - 1);
    this.resize(k, low, high - low + 1);
    return this.startOf(k) + index - low;
  }

  /** Rebuilds the store with histogram `k`'s window set to `length` buckets from bucket `low` (its codes in that range kept). */
  private resize(k: number, low: number, length: number): void {
    const old = this.data;
    const fields = this.count * FIELDS;
    const m = k * FIELDS;
    const oldLength = old[m + LENGTH]!;
    const oldOffset = old[m + OFFSET]!;
    const start = this.startOf(k);
    const data = new Uint16Array(old.length - oldLength + length);
    data.set(old.subarray(0, start));
    data.set(old.subarray(start + oldLength), start + length);
    // Copy the overlap of the old window and the new one.
    const from = Math.max(oldOffset, low);
    const to = Math.min(oldOffset + oldLength, low + length);
    if (to > from) data.set(old.subarray(start + from - oldOffset, start + to - oldOffset), start + from - low);
    data[m + OFFSET] = low;
    data[m + LENGTH] = length;
    if (data.length - fields > TOP * this.count) throw new RangeError('the pool outgrew its bucket scheme');
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
