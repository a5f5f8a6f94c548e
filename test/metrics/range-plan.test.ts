import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignedRange, pointsIn, pointsPerChunk, splitRange } from '../../src/metrics/range-plan.ts';

const MIN = 60_000;

test('ranges align to the step: first point after `from`, last at or before `to`', () => {
  assert.deepEqual(alignedRange(10 * MIN + 5, 20 * MIN + 59_999, MIN), { start: 11 * MIN, end: 20 * MIN, step: MIN });
  assert.equal(alignedRange(10 * MIN, 10 * MIN + 59_999, MIN), undefined);
});

test('8 days at 60 s (11,520 points) split into 11,000 + 520 without overlap', () => {
  const range = { start: MIN, end: 11_520 * MIN, step: MIN };
  assert.equal(pointsIn(range), 11_520);
  const chunks = splitRange(range, 11_000);
  assert.deepEqual(chunks.map(pointsIn), [11_000, 520]);
  assert.equal(chunks[1]!.start, chunks[0]!.end + MIN);
  assert.equal(chunks[1]!.end, range.end);
});

test('points per chunk respect both the answer budget and the per-series limit', () => {
  assert.equal(pointsPerChunk(500, 250_000), 500);
  assert.equal(pointsPerChunk(1, 250_000), 11_000);
  assert.equal(pointsPerChunk(1_000_000, 250_000), 1);
});
