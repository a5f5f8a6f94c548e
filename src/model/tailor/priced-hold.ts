/**
 * How far ahead a change should cover, priced in absolute terms (decision 0251): a change that
 * covers a longer horizon lasts longer (fewer changes) but holds more than the need of now until
 * the need grows into it. The excess, (value - need) x horizon / 2 (the need rising into the value
 * over the horizon), is the price of the longer horizon; it is paid when it is at most `price`
 * (the unit of the values x hours). A small container gets a long horizon for little absolute
 * slack, a large one a short horizon: the slack figures are sums, dominated by the large ones,
 * while every container's change counts the same (the argument of decision 0246 for cuts).
 * Example, memory, price 0.25 GiB-h: a leak at 1 GiB growing 20 MiB/h covers 4 h (excess 80 MiB x
 * 2 h = 0.16 GiB-h; 8 h would cost 0.63), one at 8 GiB growing 160 MiB/h covers 1 h.
 */

/** The value for the longest candidate horizon whose excess costs at most `price`; the first candidate's value at least. */
export function pricedHold(candidatesMs: readonly number[], valueFor: (holdMs: number) => number, need: number, price: number): number {
  let best = NaN;
  for (const holdMs of candidatesMs) {
    const value = valueFor(holdMs);
    if (!Number.isNaN(best) && (Math.max(0, value - need) * holdMs) / 2 / 3_600_000 > price) break;
    best = value;
  }
  return best;
}
