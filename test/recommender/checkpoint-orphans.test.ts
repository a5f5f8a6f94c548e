import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCheckpoint } from '../../src/api/vpa-checkpoint.ts';
import { orphanCheckpoints } from '../../src/recommender/checkpoint-orphans.ts';

test('checkpoints of a deleted VPA are orphans; those of an existing VPA are not', () => {
  const cps = [buildCheckpoint('shop', 'web', 'app', {}), buildCheckpoint('shop', 'old', 'app', {}), buildCheckpoint('other', 'web', 'app', {})];
  assert.deepEqual(orphanCheckpoints(cps, new Set(['shop/web'])), [
    { namespace: 'shop', name: 'old-app' },
    { namespace: 'other', name: 'web-app' },
  ]);
});
