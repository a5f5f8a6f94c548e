import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryTarget } from '../../../src/recommender/tailor/memory-target.ts';
import { TAILOR_DEFAULTS } from '../../../src/recommender/tailor/options.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const MIB = 1024 ** 2;

/**
 * Three days at a steady 1,000 / 1.12 MiB (the follow rule's limit for the next hour is then
 * 1,000 MiB, its pressure line 900 MiB), then one hour shaped by `minutes` (MiB per minute, the
 * rest of the hour back at the steady level); returns the peak the target covers afterwards.
 */
function afterHour(minutes: number[]): number {
  const m = new MemoryTarget({ ...TAILOR_DEFAULTS });
  const steady = (1000 / 1.12) * MIB;
  let t = 0;
  for (; t < 3 * DAY; t += MIN) m.add(steady, t);
  for (let i = 0; i < 60; i++, t += MIN) m.add(i < minutes.length ? minutes[i]! * MIB : steady, t);
  for (let i = 0; i < 60; i++, t += MIN) m.add(steady, t);
  return m.peak(t) / MIB;
}

test('a jump past the limit faster than the pressure guard is a miss: the follow rule is suspended', () => {
  // 850 -> 1,010 MiB in one minute: under the 900 MiB line, then past the 1,000 MiB limit.
  assert.equal(Math.round(afterHour([850, 1010])), 1010, 'the 7-day peak rule covers the jump');
});

test('growth the guard would have caught is not a miss: the follow rule stays in force', () => {
  // 910, 950 MiB: two minutes at the 900 MiB line, the guard raises the limit to 1,500 MiB first.
  assert.equal(Math.round(afterHour([910, 950, 1010])), 893, 'back to the last hours: 1,000 / 1.12');
});
