import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeConditions } from '../../src/recommender/vpa-conditions.ts';

const T1 = Date.UTC(2026, 0, 1, 10, 0, 0);
const T2 = T1 + 60_000;

test("a condition keeps its transition time while its status holds; other components' conditions stay", () => {
  const first = mergeConditions(
    [{ type: 'UpdaterNote', status: 'True' }],
    [{ type: 'RecommendationProvided', status: 'False', reason: 'NoSamples', message: 'm' }],
    T1,
  );
  assert.deepEqual(
    first.map((c) => [c.type, c.status, c.lastTransitionTime]),
    [
      ['UpdaterNote', 'True', undefined],
      ['RecommendationProvided', 'False', '2026-01-01T10:00:00Z'],
    ],
  );
  const same = mergeConditions(first, [{ type: 'RecommendationProvided', status: 'False', reason: 'NoSamples', message: 'other words' }], T2);
  assert.equal(same[1]!.lastTransitionTime, '2026-01-01T10:00:00Z');
  assert.equal(same[1]!.message, 'other words');
  const flipped = mergeConditions(same, [{ type: 'RecommendationProvided', status: 'True', reason: 'Estimated', message: 'm' }], T2);
  assert.equal(flipped[1]!.lastTransitionTime, '2026-01-01T10:01:00Z');
});

test('a recommender condition no longer wanted is removed', () => {
  const before = mergeConditions([], [{ type: 'FetchingHistory', status: 'True', reason: 'Bootstrapping', message: 'm' }], T1);
  assert.deepEqual(mergeConditions(before, [], T2), []);
});
