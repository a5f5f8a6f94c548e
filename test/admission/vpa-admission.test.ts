import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reviewVpa } from '../../src/admission/vpa-admission.ts';

const vpa = (annotations: Record<string, string>) => ({
  apiVersion: 'autoscaling.k8s.io/v1',
  kind: 'VerticalPodAutoscaler',
  metadata: { name: 'web', annotations },
  spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, updatePolicy: { updateMode: 'InPlaceOrRecreate' } },
});

test('a VPA with a bad tailor.dev/ annotation is denied, the annotation named', () => {
  const r = reviewVpa({ uid: 'u1', operation: 'UPDATE', object: vpa({ 'tailor.dev/canary-share': '120%' }) });
  assert.equal(r.outcome, 'denied');
  assert.equal(r.response.status?.message, 'VerticalPodAutoscaler "web" is invalid: metadata.annotations[tailor.dev/canary-share]: "120%": must be at least 0% and at most 100%');
});

test('good annotations are allowed', () => {
  assert.equal(reviewVpa({ uid: 'u2', operation: 'CREATE', object: vpa({ 'tailor.dev/canary-share': '20%', 'tailor.dev/cooldown': '5m' }) }).outcome, 'allowed');
});
