/**
 * Is a series of hourly peaks rising, and how fast? A Mann-Kendall test on the last `n` hours: S
 * is the number of later-above-earlier pairs minus later-below-earlier pairs; the series is rising
 * when S reaches `minS`, and its growth per hour is then Sen's slope (the median of the slopes of
 * all pairs, which a single outlier does not move). Otherwise the growth is 0: the peaks of a
 * steady container go up and down with its noise, and a raise that covered that "growth" for hours
 * would be cut again later (one change up, one down, nothing gained).
 * `minS` comes from the test's level ({@link criticalS}): for independent peaks in random order,
 * P(S >= minS) is at most that level. n = 6 at 5%: minS = 11 (at most 2 of the 15 pairs out of
 * order), which 20 of the 720 orderings reach by chance (2.8%); a leak of 2% an hour under 1%
 * noise passes almost always.
 * Worked number: peaks 500, 520, 515, 540, 560, 575 MiB: 14 pairs up, 1 down, S = 13 >= 11;
 * Sen's slope = median of the 15 pair slopes = 15 MiB an hour.
 * Pure; `peaks.peakOfHour` returns 0 for an hour without data (then there is no trend).
 */

/** Where the hourly peaks come from (hourly-peaks.ts). */
export interface PeaksByHour {
  peakOfHour(hour: number): number;
}

/** Scratch for the pair slopes (n <= 12: 66 pairs; JS runs one at a time). */
const slopes = new Float64Array(66);

/** The growth per hour of the peaks of hours last - n + 1 .. last when they pass the test, else 0. */
export function risingSlope(peaks: PeaksByHour, last: number, n: number, minS: number): number {
  if (n < 2 || n > 12) throw new RangeError(`the trend test takes 2 to 12 hours, not ${n}`);
  let s = 0;
  let pairs = 0;
  for (let i = 0; i < n; i++) {
    const a = peaks.peakOfHour(last - n + 1 + i);
    if (!(a > 0)) return 0;
    for (let j = i + 1; j < n; j++) {
      const b = peaks.peakOfHour(last - n + 1 + j);
      if (!(b > 0)) return 0;
      s += Math.sign(b - a);
      slopes[pairs++] = (b - a) / (j - i);
    }
  }
  if (s < minS) return 0;
  const sorted = slopes.subarray(0, pairs).sort();
  const mid = pairs >> 1;
  const median = pairs % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.max(0, median);
}

/**
 * The smallest S that n values in random order reach with probability at most `level` (exact:
 * S = pairs - 2 x inversions, and the number of orderings with k inversions is a Mahonian number).
 * Example: n = 6, level 0.05: 1, 5, 14 orderings have 0, 1, 2 inversions (S = 15, 13, 11) and 29
 * have 3 (S = 9); P(S >= 11) = 20 / 720 = 2.8%, P(S >= 9) = 49 / 720 = 6.8%: 11.
 */
export function criticalS(n: number, level: number): number {
  const key = `${n}/${level}`;
  const known = critical.get(key);
  if (known !== undefined) return known;
  const pairs = (n * (n - 1)) / 2;
  // counts[k]: orderings of the values seen so far with k inversions.
  let counts = [1];
  let total = 1;
  for (let m = 2; m <= n; m++) {
    const next = new Array<number>(counts.length + m - 1).fill(0);
    for (let k = 0; k < counts.length; k++) for (let j = 0; j < m; j++) next[k + j]! += counts[k]!;
    counts = next;
    total *= m;
  }
  let tail = 0;
  let s = pairs + 2;
  for (let k = 0; k < counts.length; k++) {
    tail += counts[k]!;
    if (tail / total > level) break;
    s = pairs - 2 * k;
  }
  critical.set(key, s);
  return s;
}

/** criticalS by n and level: every model of a strategy asks for the same one. */
const critical = new Map<string, number>();
