import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TargetBackoff, targetKey, TARGET_BACKOFF_MAX_MS } from '../../src/recommender/target-backoff.ts';

const problem = { reason: 'TargetNotFound', message: 'deployments "gone" not found' };
const vpa = (generation: number, name = 'gone') => ({
  metadata: { uid: 'u1', generation },
  spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name } },
});

test('a failing target is read again after 30 s, 1, 2, 4 ... min, at most 10 min apart', () => {
  const backoff = new TargetBackoff();
  const key = targetKey(vpa(1));
  let now = 0;
  const reads: number[] = [];
  // A cycle every 10 s for 2 hours.
  for (; now <= 2 * 3600_000; now += 10_000) {
    if (backoff.held('ns/v', key, now)) continue;
    reads.push(now / 1000);
    backoff.failed('ns/v', key, problem, now);
  }
  assert.deepEqual(reads.slice(0, 7), [0, 30, 90, 210, 450, 930, 1530]);
  const gaps = reads.slice(1).map((r, i) => r - reads[i]!);
  assert.ok(
    gaps.every((g) => g <= TARGET_BACKOFF_MAX_MS / 1000),
    `gaps ${gaps.join(',')}`,
  );
  assert.ok(reads.length <= 18, `${reads.length} reads in 2 hours instead of 720`);
  assert.deepEqual(backoff.held('ns/v', key, 1)?.problem, problem, 'the held problem is the last one');
});

test('a change of the VPA (generation, target, a new object) or a success reads at once', () => {
  const backoff = new TargetBackoff();
  backoff.failed('ns/v', targetKey(vpa(1)), problem, 0);
  assert.ok(backoff.held('ns/v', targetKey(vpa(1)), 1000));
  assert.equal(backoff.held('ns/v', targetKey(vpa(2)), 1000), undefined, 'new generation');
  assert.equal(backoff.held('ns/v', targetKey(vpa(1, 'other')), 1000), undefined, 'new target');
  assert.equal(backoff.held('ns/v', targetKey({ ...vpa(1), metadata: { uid: 'u2', generation: 1 } }), 1000), undefined, 'recreated VPA');
  assert.equal(backoff.failed('ns/v', targetKey(vpa(2)), problem, 1000).failures, 1, 'a new key starts over');
  backoff.succeeded('ns/v');
  assert.equal(backoff.held('ns/v', targetKey(vpa(2)), 1001), undefined);
  assert.equal(backoff.failed('ns/v', targetKey(vpa(2)), problem, 2000).retryAt, 32_000);
  backoff.retain(new Set());
  assert.equal(backoff.lastFailure('ns/v', targetKey(vpa(2))), undefined, 'a deleted VPA is forgotten');
});
