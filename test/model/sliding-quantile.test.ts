import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quantileSorted } from 'simple-statistics';
import { SlidingQuantile } from '../../src/model/sliding-quantile.ts';
import { SlidingMax } from '../../src/model/sliding-max.ts';
import { Random } from '../../src/replay/workload/random.ts';

test('the sliding p95 stays within the 1% bucket of the exact window quantile (simple-statistics)', () => {
  const window = 500;
  const q = new SlidingQuantile(0.95, window * 1000);
  const rng = new Random(7);
  const values: number[] = [];
  for (let i = 0; i < 3000; i++) {
    // A level that moves, so the window's quantile goes up and down.
    const v = (1 + Math.sin(i / 300)) * rng.logBetween(0.01, 4);
    values.push(v);
    q.add(v, i * 1000);
    if (i % 97 !== 0) continue;
    const inWindow = values.slice(Math.max(0, i - window + 1)).sort((a, b) => a - b);
    assert.equal(q.count, inWindow.length);
    // Nearest rank: the ceil(0.95 n)-th smallest value; the bucket's upper edge is at most 1% above.
    const exact = inWindow[Math.ceil(0.95 * inWindow.length) - 1] ?? NaN;
    const got = q.value() ?? NaN;
    assert.ok(got >= exact * (1 - 1e-9) && got <= exact * 1.01 + 1e-3, `i=${i}: ${got} vs ${exact}`);
    // And close to the interpolated quantile simple-statistics gives.
    assert.ok(Math.abs(got - quantileSorted(inWindow, 0.95)) / exact < 0.05);
  }
});

test('samples leave the quantile window when they get old', () => {
  const q = new SlidingQuantile(0.5, 10_000);
  q.add(5, 0);
  q.add(5, 1000);
  q.add(1, 10_500); // the sample at 0 leaves (at or before 500)
  assert.equal(q.count, 2);
  q.expire(11_000); // the sample at 1000 leaves
  assert.equal(q.count, 1);
  assert.ok(Math.abs((q.value() ?? 0) - 1) < 0.01);
  q.expire(30_000);
  assert.equal(q.value(), undefined);
});

test('the sliding max follows the window: 3, then 5, then 4 after the 5 leaves', () => {
  const m = new SlidingMax(3000);
  m.add(3, 0);
  assert.equal(m.value(), 3);
  m.add(5, 1000);
  m.add(4, 2000);
  assert.equal(m.value(), 5);
  m.add(1, 4000); // 0 and 1000 leave
  assert.equal(m.value(), 4);
  for (let i = 0; i < 200; i++) m.add(200 - i, 5000 + i); // grows the queue past its first capacity
  assert.equal(m.value(), 200);
});
