import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import { statusRefusedEvent } from '../../src/recommender/vpa-events.ts';

const vpa = {
  apiVersion: 'autoscaling.k8s.io/v1',
  kind: 'VerticalPodAutoscaler',
  metadata: { name: 'web', namespace: 'shop', uid: 'u-1' },
  spec: {},
} as unknown as VerticalPodAutoscaler;

test('a refused status becomes one Warning ConfigUnsupported event on the VPA, naming the problem', () => {
  const at = Date.UTC(2026, 0, 1, 10, 0, 0);
  const e = statusRefusedEvent(vpa, 'spec.x: bad', at, 'tailor-0');
  assert.equal(e.type, 'Warning');
  assert.equal(e.reason, 'ConfigUnsupported');
  assert.deepEqual(e.involvedObject, { apiVersion: 'autoscaling.k8s.io/v1', kind: 'VerticalPodAutoscaler', namespace: 'shop', name: 'web', uid: 'u-1' });
  assert.equal(e.metadata?.generateName, 'web.');
  assert.match(e.message!, /spec\.x: bad$/);
  assert.equal(e.firstTimestamp?.getTime(), at);
  assert.equal(e.reportingInstance, 'tailor-0');
});

test('a long message is capped at 1 KiB', () => {
  assert.equal(statusRefusedEvent(vpa, 'x'.repeat(2000), 0, 'i').message!.length, 1024);
});
