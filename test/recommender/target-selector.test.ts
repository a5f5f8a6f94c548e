import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scaleSelector, TargetSelectorError, WORKLOAD_KINDS, workloadSelector } from '../../src/recommender/target-selector.ts';

test("each well-known kind gives its pods' selector", () => {
  const selector = { matchLabels: { app: 'web' } };
  for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']) {
    assert.deepEqual(workloadSelector(kind, { spec: { selector } }), selector, kind);
  }
  assert.deepEqual(workloadSelector('ReplicationController', { spec: { selector: { app: 'rc' } } }), { matchLabels: { app: 'rc' } });
  assert.deepEqual(workloadSelector('CronJob', { spec: { jobTemplate: { spec: { template: { metadata: { labels: { job: 'nightly' } } } } } } }), {
    matchLabels: { job: 'nightly' },
  });
  assert.equal(Object.keys(WORKLOAD_KINDS).length, 7);
});

test('a target without a selector is an error that says so', () => {
  assert.throws(
    () => workloadSelector('Deployment', { spec: {} }),
    (e: Error) => e instanceof TargetSelectorError && /no spec.selector/.test(e.message),
  );
  assert.throws(() => workloadSelector('CronJob', { spec: { jobTemplate: {} } }), /no labels/);
  assert.throws(() => workloadSelector('Deployment', {}), /no spec/);
});

test('any kind with a scale subresource: status.selector', () => {
  assert.deepEqual(scaleSelector('Rollout', { status: { selector: 'app=canary' } }).matchLabels, { app: 'canary' });
  assert.throws(() => scaleSelector('Rollout', { status: {} }), /reports no status.selector/);
});
