/**
 * Memory peaks per hour over a bounded history (a ring of hourly maxima); the maximum over the
 * history is the peak to cover. 7 days of hours = 168 peaks in one 336-byte Uint16Array per
 * container: a peak is stored as a whole number of a per-container unit 2^j bytes, rounded UP, with
 * j chosen so the largest peak held is 32,768-65,535 units (a peak is at most 1/32,768 above its
 * value: 32 KiB on 1 GiB; decision 0260). A slot belongs to the hour `newest - k` for the k that
 * maps to it: slots are cleared as the newest hour moves on, so no hour numbers are stored. The
 * maximum is rescanned at most once per hour, so asking every minute costs nothing.
 * Worked number: a first peak of 300 MiB (314,572,800 bytes) sets j = 29 - 15 = 14 (16 KiB units)
 * and stores 19,200; a later 2 GiB peak would need 131,072 units: j becomes 16 and 19,200 becomes 4,800.
 */
const HOUR = 3_600_000;

const TOP = 65_535;
/** j before the first positive peak. */
const NO_UNIT = -1_000;

export class HourlyPeaks {
  private codes: Uint16Array;
  /** Peaks are codes x 2^unit bytes. */
  private unit = NO_UNIT;
  /** The newest hour (ms / 1 h) with a sample; slots hold the hours (newest - length, newest]. */
  private newest = -(2 ** 30);
  private cachedMax = 0;
  private checkedHour = -1;
  private dirty = false;

  constructor(historyMs: number) {
    this.codes = new Uint16Array(Math.max(1, Math.ceil(historyMs / HOUR)));
  }

  /** Records `value` (>= 0 bytes) at `at` (ms) into its hour; a sample older than the history is dropped. */
  add(value: number, at: number): void {
    const hour = Math.floor(at / HOUR);
    if (!(hour > -(2 ** 30) && hour < 2 ** 30)) throw new RangeError(`sample time out of range: ${at} ms`);
    const n = this.codes.length;
    if (hour > this.newest) {
      // The hours between the last one and this one had no sample: clear their slots.
      for (let h = Math.max(this.newest + 1, hour - n + 1); h <= hour; h++) this.codes[this.slot(h)] = 0;
      this.newest = hour;
      this.dirty = true; // the hours it replaced may have held the maximum
      this.refine();
    } else if (hour <= this.newest - n) {
      return;
    }
    if (!(value > 0)) return;
    if (this.unit === NO_UNIT) this.unit = Math.ceil(Math.log2(value)) - 15;
    let code = Math.ceil(value * 2 ** -this.unit);
    while (code > TOP) {
      this.coarsen();
      code = Math.ceil(value * 2 ** -this.unit);
    }
    const slot = this.slot(hour);
    if (code > this.codes[slot]!) this.codes[slot] = code;
    const stored = code * 2 ** this.unit;
    if (stored > this.cachedMax) this.cachedMax = stored;
  }

  /** Doubles the unit (codes halved, rounded up: a peak is never lowered). */
  private coarsen(): void {
    const codes = this.codes;
    for (let i = 0; i < codes.length; i++) codes[i] = Math.ceil(codes[i]! / 2);
    this.unit++;
    this.dirty = true;
  }

  /** Halves the unit while every code stays under 32,768 (exact: codes doubled), for finer new peaks once large ones left the history. */
  private refine(): void {
    const codes = this.codes;
    let max = 0;
    for (let i = 0; i < codes.length; i++) if (codes[i]! > max) max = codes[i]!;
    if (max === 0 || this.unit === NO_UNIT) return;
    let shift = 0;
    while (max * 2 ** (shift + 1) <= TOP / 2) shift++;
    if (shift === 0) return;
    for (let i = 0; i < codes.length; i++) codes[i] = codes[i]! * 2 ** shift;
    this.unit -= shift;
  }

  private slot(hour: number): number {
    const n = this.codes.length;
    return ((hour % n) + n) % n;
  }

  /** The peak of absolute hour `hour` (0 when it is not in the history). */
  peakOfHour(hour: number): number {
    return hour <= this.newest && hour > this.newest - this.codes.length ? this.codes[this.slot(hour)]! * 2 ** this.unit : 0;
  }

  /**
   * The peak to cover for the next `aheadHours` hours, from the same hours of day on earlier
   * days of the history and from the last `recentHours` hours (the current one included).
   * Example at 14:20 with aheadHours 1, recentHours 3: max of today 12:00-14:59 and of every
   * earlier day's 14:00-15:59 in the history.
   */
  seasonalMax(now: number, aheadHours: number, recentHours: number): number {
    const newest = Math.floor(now / HOUR);
    return this.seasonalFrom(newest, newest, aheadHours, recentHours);
  }

  /**
   * What `seasonalMax` would have said at the start of hour `hour`, from the hours before it only:
   * used to check afterwards whether that hour stayed under the prediction.
   */
  predictionFor(hour: number, aheadHours: number, recentHours: number): number {
    return this.seasonalFrom(hour, hour - 1, aheadHours, recentHours);
  }

  /** The largest peak of the `hours` hours ending with hour `last` (included). */
  recentMax(last: number, hours: number): number {
    let best = 0;
    for (let h = last - hours + 1; h <= last; h++) best = Math.max(best, this.peakOfHour(h));
    return best;
  }

  private seasonalFrom(hour: number, lastKnown: number, aheadHours: number, recentHours: number): number {
    let best = 0;
    for (let h = hour - recentHours + 1; h <= lastKnown; h++) best = Math.max(best, this.peakOfHour(h));
    const days = Math.floor(this.codes.length / 24);
    for (let d = 1; d <= days; d++) {
      for (let k = 0; k <= aheadHours; k++) best = Math.max(best, this.peakOfHour(hour - 24 * d + k));
    }
    return best;
  }

  /** The largest hourly peak in the history ending at `now` (0 when there is none). */
  max(now: number): number {
    const newest = Math.floor(now / HOUR);
    if (!this.dirty && newest === this.checkedHour) return this.cachedMax;
    let best = 0;
    for (let h = Math.min(newest, this.newest); h > newest - this.codes.length && h > this.newest - this.codes.length; h--)
      best = Math.max(best, this.codes[this.slot(h)]!);
    this.cachedMax = best * 2 ** this.unit;
    this.checkedHour = newest;
    this.dirty = false;
    return this.cachedMax;
  }
}
