import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planDailyLevels } from '../../../src/model/tailor/daily-plan.ts';

const squareWave = Array.from({ length: 24 }, (_, h) => (h >= 8 && h < 20 ? 1 : 0.1));

test('a square wave keeps its two levels when a change costs less than the slack it saves', () => {
  const out = new Float64Array(24);
  planDailyLevels(squareWave, 2, out);
  assert.deepEqual([...out], squareWave);
});

test('with a dearer change (6 core-hours, 12 for the two) one level all day wins (10.8 core-hours of slack)', () => {
  const out = new Float64Array(24);
  planDailyLevels(squareWave, 6, out);
  assert.deepEqual([...out], Array<number>(24).fill(1));
});

test('a wobble is not followed; a level covers every hour it holds', () => {
  const wobble = Array.from({ length: 24 }, (_, h) => (h % 2 === 0 ? 1 : 1.1));
  const out = new Float64Array(24);
  planDailyLevels(wobble, 2, out);
  assert.deepEqual([...out], Array<number>(24).fill(1.1));
  // Without a change cost every hour keeps its own need.
  planDailyLevels(wobble, 0, out);
  assert.deepEqual([...out], wobble);
});

test('the cut may wrap around midnight: a night job from 22:00 to 02:00', () => {
  const night = Array.from({ length: 24 }, (_, h) => (h >= 22 || h < 2 ? 2 : 0.2));
  const out = new Float64Array(24);
  planDailyLevels(night, 1, out);
  assert.deepEqual([...out], night);
});
