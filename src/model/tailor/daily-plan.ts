/**
 * A day's CPU levels planned to pay for their changes: given the 24 hourly needs of a daily cycle,
 * pick piecewise-constant levels (each at least the need of every hour it covers) that minimise
 * slack + `changeCost` x changes, over the cycle (hour 23 is followed by hour 0). A change costs as
 * much as `changeCost` of over-provisioning (in need x hours), so a level only steps down for a
 * stretch where it saves more than that: a square wave gets its two levels, a wobble none.
 * Dynamic programming over segment boundaries, O(24^3) per plan (recomputed every few minutes).
 * Pure; writes into `out`.
 * Worked number: needs 1 core from 08:00 to 20:00 and 0.1 core otherwise, change cost 2 core-hours:
 * two segments (0.1 x 12 h, 1 x 12 h), slack 0, 2 changes = 4 core-hours; one level at 1 core all
 * day costs 0.9 x 12 = 10.8 core-hours: the two levels win. With a change cost of 6 core-hours (12
 * for two changes) the single level wins.
 */

/** Scratch for the plan (one plan at a time: JS runs one at a time). */
const best = new Float64Array(25);
const from = new Int32Array(25);

/**
 * Fills `out[0..23]` with the planned level of each hour for hourly `needs` (length 24) and a
 * change cost in need-hours. Hours with a need of 0 (no data) count as 0.
 */
export function planDailyLevels(needs: ArrayLike<number>, changeCost: number, out: Float64Array): void {
  let peak = 0;
  for (let h = 0; h < 24; h++) peak = Math.max(peak, needs[h] ?? 0);
  // One level all day: no change at all.
  let bestCost = 0;
  for (let h = 0; h < 24; h++) bestCost += peak - (needs[h] ?? 0);
  let bestStart = -1;
  // A cycle with at least two segments has a boundary somewhere: try each hour as the first one.
  for (let start = 0; start < 24; start++) {
    const cost = segmentation(needs, start, changeCost);
    if (cost < bestCost - 1e-12) {
      bestCost = cost;
      bestStart = start;
    }
  }
  if (bestStart < 0) {
    out.fill(peak, 0, 24);
    return;
  }
  segmentation(needs, bestStart, changeCost);
  // Walk the segments back from the end and fill their levels.
  let end = 24;
  while (end > 0) {
    const begin = from[end]!;
    let level = 0;
    for (let i = begin; i < end; i++) level = Math.max(level, needs[(bestStart + i) % 24] ?? 0);
    for (let i = begin; i < end; i++) out[(bestStart + i) % 24] = level;
    end = begin;
  }
}

/** Least cost of cutting the 24 hours from `start` into segments (each a change); fills best/from. */
function segmentation(needs: ArrayLike<number>, start: number, changeCost: number): number {
  best[0] = 0;
  for (let i = 1; i <= 24; i++) {
    let top = 0;
    let sum = 0;
    let min = Infinity;
    let arg = 0;
    for (let j = i - 1; j >= 0; j--) {
      const need = needs[(start + j) % 24] ?? 0;
      top = Math.max(top, need);
      sum += need;
      const cost = best[j]! + (i - j) * top - sum + changeCost;
      if (cost < min) {
        min = cost;
        arg = j;
      }
    }
    best[i] = min;
    from[i] = arg;
  }
  return best[24]!;
}
