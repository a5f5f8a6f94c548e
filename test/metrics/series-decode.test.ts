import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countGapSteps, decodeJsonSeries, finishMatrix, mergeSeries, type JsonRangeSeries } from '../../src/metrics/series-decode.ts';
import { DEFAULT_LABEL_NAMES } from '../../src/metrics/metric-names.ts';
import { cleanQuality, compareContainerIds, containerId, type ContainerSeries } from '../../src/metrics/metrics-source.ts';

const range = { start: 60_000, end: 300_000, step: 60_000 };

test('NaN and Inf are dropped and counted; POD and empty containers are skipped; gaps counted', () => {
  const raw = [
    {
      metric: { namespace: 'a', pod: 'p', container: 'c' },
      values: [
        [60, '1'],
        [120, 'NaN'],
        [180, '+Inf'],
        [240, '2'],
      ],
    },
    { metric: { namespace: 'a', pod: 'p', container: 'POD' }, values: [[60, '1']] },
    { metric: { namespace: 'a', pod: 'p', container: '' }, values: [[60, '1']] },
  ] as JsonRangeSeries[];
  const parsed = cleanQuality();
  const parts = raw.flatMap((item) => decodeJsonSeries(item, DEFAULT_LABEL_NAMES, parsed) ?? []);
  const { series, quality } = finishMatrix(parts, range, parsed);
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

/** The merge as it was first written: grouped by id string, ids sorted (the reference order). */
function mergeById(parts: readonly ContainerSeries[]): ContainerSeries[] {
  const byId = new Map<string, ContainerSeries[]>();
  for (const p of parts) byId.set(containerId(p.key), [...(byId.get(containerId(p.key)) ?? []), p]);
  return [...byId.keys()].sort().map((id) => {
    const list = byId.get(id)!;
    if (list.length === 1) return list[0]!;
    const points = new Map<number, number>();
    for (const s of list) s.times.forEach((t, i) => points.set(t, Math.max(points.get(t) ?? -Infinity, s.values[i]!)));
    const times = [...points.keys()].sort((a, b) => a - b);
    return { key: list[0]!.key, times, values: times.map((t) => points.get(t)!) };
  });
}

test('mergeSeries orders and merges exactly as grouping by id string does, prefixes and slashes included', () => {
  // Names where one is a prefix of another ('-' and '.' sort before the '/' of the id) and fields
  // holding '/' (two different keys with one id are one container, as they always were).
  const names = ['a', 'a-b', 'a.b', 'ab', 'a/b', 'b', 'web', 'web-1', 'web-10', 'web-2'];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = () => names[Math.floor(random() * names.length)]!;
  for (let round = 0; round < 50; round++) {
    const parts: ContainerSeries[] = [];
    for (let i = 0; i < 40; i++) {
      const t = Math.floor(random() * 4) * 60_000;
      parts.push({ key: { namespace: pick(), pod: pick(), container: pick() }, times: [t, t + 60_000], values: [random(), random()] });
    }
    assert.deepEqual(mergeSeries(parts), mergeById(parts));
  }
});

test('compareContainerIds orders as the id strings sort, and is 0 only for equal ids', () => {
  const keys = ['a', 'a-b', 'a.b', 'a/b', 'b'].flatMap((namespace) =>
    ['p', 'p-1', 'p/c'].flatMap((pod) => ['c', 'c-1', ''].map((container) => ({ namespace, pod, container }))),
  );
  for (const x of keys) {
    for (const y of keys) {
      const byId = containerId(x) < containerId(y) ? -1 : containerId(x) > containerId(y) ? 1 : 0;
      assert.equal(compareContainerIds(x, y), byId, `${containerId(x)} against ${containerId(y)}`);
    }
  }
});
