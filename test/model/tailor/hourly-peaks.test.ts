import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HourlyPeaks } from '../../../src/model/tailor/hourly-peaks.ts';

const HOUR = 3_600_000;

test('hourly peaks: history max, recent max and the hour-of-day prediction', () => {
  const p = new HourlyPeaks(48 * HOUR); // 2 days
  // Day 0: 100 every hour except 500 at 14:00; day 1: 200 every hour.
  for (let h = 0; h < 48; h++) p.add(h === 14 ? 500 : h < 24 ? 100 : 200, h * HOUR + 1000);
  assert.equal(p.max(47 * HOUR), 500);
  assert.equal(p.recentMax(47, 3), 200);
  // At 13:00 on day 1 (hour 37): the last 3 hours hold 200; yesterday's 13:00-14:00 held 500.
  assert.equal(p.seasonalMax(37 * HOUR, 1, 3), 500);
  // At 16:00 on day 1 (hour 40): yesterday 16:00-17:00 held 100, recent hours 200.
  assert.equal(p.seasonalMax(40 * HOUR, 1, 3), 200);
  // 14:00 of day 0 leaves the 2-day history at hour 62.
  p.add(50, 62 * HOUR);
  assert.equal(p.max(62 * HOUR), 200);
  assert.equal(p.peakOfHour(14), 0);
});
