/**
 * Memory peaks per hour over a bounded history (a ring of hourly maxima); the maximum over the
 * history is the peak to cover. 7 days of hours = 168 peaks (float64) and 168 hour numbers (int32)
 * in one 2,016-byte buffer per container. The maximum is rescanned at most once per hour, so asking
 * every minute costs nothing.
 */
const HOUR = 3_600_000;

export class HourlyPeaks {
  private readonly peaks: Float64Array;
  /** Absolute hour number (ms / 1 h, int32: up to the year 245,000) held by each slot; -1 when unused. */
  private readonly hours: Int32Array;
  private cachedMax = 0;
  private checkedHour = -1;
  private dirty = false;

  constructor(historyMs: number) {
    const n = Math.max(1, Math.ceil(historyMs / HOUR));
    const buffer = new ArrayBuffer(n * 12);
    this.peaks = new Float64Array(buffer, 0, n);
    this.hours = new Int32Array(buffer, n * 8, n).fill(-1);
  }

  /** Records `value` at `at` (ms) into its hour. */
  add(value: number, at: number): void {
    const hour = Math.floor(at / HOUR);
    if (!(hour >= -0x80000000 && hour <= 0x7fffffff)) throw new RangeError(`sample time out of range: ${at} ms`);
    const slot = hour % this.peaks.length;
    if (this.hours[slot] !== hour) {
      this.hours[slot] = hour;
      this.peaks[slot] = value;
      this.dirty = true; // the hour it replaced may have held the maximum
    } else if (value > (this.peaks[slot] ?? 0)) {
      this.peaks[slot] = value;
    }
    if (value > this.cachedMax) this.cachedMax = value;
  }

  /** The peak of absolute hour `hour` (0 when it is not in the history). */
  peakOfHour(hour: number): number {
    const slot = ((hour % this.peaks.length) + this.peaks.length) % this.peaks.length;
    return this.hours[slot] === hour ? (this.peaks[slot] ?? 0) : 0;
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
    const days = Math.floor(this.peaks.length / 24);
    for (let d = 1; d <= days; d++) {
      for (let k = 0; k <= aheadHours; k++) best = Math.max(best, this.peakOfHour(hour - 24 * d + k));
    }
    return best;
  }

  /** The largest hourly peak in the history ending at `now` (0 when there is none). */
  max(now: number): number {
    const newest = Math.floor(now / HOUR);
    if (!this.dirty && newest === this.checkedHour) return this.cachedMax;
    const oldest = newest - this.peaks.length + 1;
    let best = 0;
    for (let i = 0; i < this.peaks.length; i++) {
      const h = this.hours[i] ?? -1;
      if (h >= oldest && h <= newest && (this.peaks[i] ?? 0) > best) best = this.peaks[i] ?? 0;
    }
    this.cachedMax = best;
    this.checkedHour = newest;
    this.dirty = false;
    return best;
  }
}
