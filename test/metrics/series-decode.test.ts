import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countGapSteps, decodeMatrix, mergeSeries } from '../../src/metrics/series-decode.ts';
import { DEFAULT_LABEL_NAMES } from '../../src/metrics/metric-names.ts';

const at = (s: number) => new Date(s * 1000);
const range = { start: 60_000, end: 300_000, step: 60_000 };

test('NaN and Inf are dropped and counted; POD and empty containers are skipped; gaps counted', () => {
  const raw = [
    { metric: { labels: { namespace: 'a', pod: 'p', container: 'c' } }, values: [{ time: at(60), value: 1 }, { time: at(120), value: NaN }, { time: at(180), value: Infinity }, { time: at(240), value: 2 }] },
    { metric: { labels: { namespace: 'a', pod: 'p', container: 'POD' } }, values: [{ time: at(60), value: 1 }] },
    { metric: { labels: { namespace: 'a', pod: 'p', container: '' } }, values: [{ time: at(60), value: 1 }] },
  ];
  const { series, quality } = decodeMatrix(raw, DEFAULT_LABEL_NAMES, range);
  assert.deepEqual(series, [{ key: { namespace: 'a', pod: 'p', container: 'c' }, times: [60_000, 240_000], values: [1, 2] }]);
  assert.equal(quality.nonFinite, 2);
  assert.equal(quality.gapSteps, 2);
});

test('duplicates merge deterministically: union of times, larger value wins, sorted by key', () => {
  const key = { namespace: 'a', pod: 'p', container: 'c' };
  const merged = mergeSeries([
    { key: { namespace: 'b', pod: 'p', container: 'c' }, times: [1], values: [5] },
    { key, times: [1, 2], values: [3, 4] },
    { key, times: [2, 3], values: [6, 1] },
  ]);
  assert.deepEqual(merged, [
    { key, times: [1, 2, 3], values: [3, 6, 1] },
    { key: { namespace: 'b', pod: 'p', container: 'c' }, times: [1], values: [5] },
  ]);
});

test('gap steps: [0, 60, 240] at 60 s misses 120 and 180', () => {
  assert.equal(countGapSteps([0, 60_000, 240_000], 60_000), 2);
});
