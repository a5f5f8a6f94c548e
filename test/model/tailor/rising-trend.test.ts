import { test } from 'node:test';
import assert from 'node:assert/strict';
import { criticalS, risingSlope } from '../../../src/model/tailor/rising-trend.ts';

const series = (values: number[]) => ({ peakOfHour: (hour: number) => values[hour] ?? 0 });

test('criticalS: the smallest S that random orderings reach at most `level` of the time (n = 6: 20 / 720 at S >= 11)', () => {
  assert.equal(criticalS(6, 0.05), 11);
  assert.equal(criticalS(6, 0.01), 13); // 6 / 720 = 0.8%
  assert.equal(criticalS(4, 0.05), 6); // only the one increasing ordering: 1 / 24 = 4.2%
  // Three values cannot show a rise at 5% (1 / 6 of the orderings are increasing): never.
  assert.ok(criticalS(3, 0.05) > 3);
});

test("a leak with one noisy hour passes, at Sen's slope (the median of the pair slopes)", () => {
  // 500, 520, 515, 540, 560, 575: 14 pairs up, 1 down, S = 13; median pair slope 15.
  assert.equal(risingSlope(series([500, 520, 515, 540, 560, 575]), 5, 6, 11), 15);
});

test('noise that happens to end higher is no trend (the 3-hour difference would call it growth)', () => {
  // Up and down around 500: last - 3 hours before = +20, but S = 3.
  const noise = [505, 495, 510, 490, 500, 515];
  assert.equal(risingSlope(series(noise), 5, 6, criticalS(6, 0.05)), 0);
});

test('a falling series, or an hour without data, gives no growth', () => {
  assert.equal(risingSlope(series([600, 580, 560, 540, 520, 500]), 5, 6, 11), 0);
  assert.equal(risingSlope(series([500, 0, 540, 560, 580, 600]), 5, 6, 11), 0);
  assert.throws(() => risingSlope(series([1, 2]), 1, 13, 0), RangeError);
});
