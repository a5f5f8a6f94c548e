import { test } from 'node:test';
import assert from 'node:assert/strict';
import { batchNamespaces } from '../../src/metrics/namespace-batches.ts';

test('namespaces are packed by name under the points budget', () => {
  const sizes = new Map([
    ['c', 300],
    ['a', 100],
    ['b', 100],
  ]);
  assert.deepEqual(batchNamespaces(sizes, 10, 3_000), [
    { namespaces: ['a', 'b'], series: 200 },
    { namespaces: ['c'], series: 300 },
  ]);
});

test('an incremental cycle (2 points) puts 5,000 containers in 100 namespaces into one batch', () => {
  const sizes = new Map(Array.from({ length: 100 }, (_, i) => [`ns-${String(i).padStart(3, '0')}`, 50] as [string, number]));
  assert.equal(batchNamespaces(sizes, 2, 250_000).length, 1);
  // The 8-day bootstrap at 60 s (11,520 points) needs one batch per namespace: 50 x 11,520 > 250,000 / 2.
  assert.equal(batchNamespaces(sizes, 11_520, 250_000).length, 100);
});

test('a namespace larger than the budget goes alone', () => {
  assert.deepEqual(
    batchNamespaces(
      new Map([
        ['big', 10_000],
        ['x', 1],
      ]),
      100,
      1_000,
    ).map((b) => b.namespaces),
    [['big'], ['x']],
  );
});
