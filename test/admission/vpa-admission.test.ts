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
  assert.equal(
    r.response.status?.message,
    'VerticalPodAutoscaler.autoscaling.k8s.io "web" is invalid: metadata.annotations[tailor.dev/canary-share]: "120%": must be at least 0% and at most 100%',
  );
});

test('good annotations are allowed', () => {
  assert.equal(
    reviewVpa({ uid: 'u2', operation: 'CREATE', object: vpa({ 'tailor.dev/canary-share': '20%', 'tailor.dev/cooldown': '5m' }) }).outcome,
    'allowed',
  );
});

// The invalid objects of upstream's e2e "accepts valid and rejects invalid VPA object" (with and without PerVPAConfig).
const raw = (name: string, containerPolicy: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'autoscaling.k8s.io/v1',
  kind: 'VerticalPodAutoscaler',
  metadata: { name },
  spec: {
    targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'hamster' },
    ...spec,
    resourcePolicy: { containerPolicies: [{ containerName: '*', ...containerPolicy }] },
  },
});

test("a quantity field holding text that is no quantity is denied with upstream's whole sentence", () => {
  const r = reviewVpa({
    uid: 'u3',
    operation: 'CREATE',
    name: 'oom-test-vpa',
    object: raw('oom-test-vpa', { oomBumpUpRatio: 'not-a-number', oomMinBumpUp: 104857600 }, { updatePolicy: { updateMode: 'Auto' } }),
  });
  assert.equal(r.outcome, 'denied');
  assert.equal(r.response.status?.code, 422);
  assert.equal(
    r.response.status?.message,
    `VerticalPodAutoscaler.autoscaling.k8s.io "oom-test-vpa" is invalid: .: Internal error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
  );
});

test('minAllowed with a requests object where quantities belong is denied; the valid object is allowed', () => {
  const r = reviewVpa({ uid: 'u4', operation: 'CREATE', object: raw('hamster-vpa-invalid', { minAllowed: { requests: { cpu: '50m' } } }) });
  assert.equal(r.outcome, 'denied');
  assert.match(
    r.response.status?.message ?? '',
    /^VerticalPodAutoscaler\.autoscaling\.k8s\.io "hamster-vpa-invalid" is invalid: \.: Internal error: quantities must match/,
  );
  assert.equal(reviewVpa({ uid: 'u5', operation: 'CREATE', object: raw('hamster-vpa-valid', { minAllowed: { cpu: '50m' } }) }).outcome, 'allowed');
});

test('upstream 1.8 per-VPA fields are allowed; out of their bounds they are denied field by field', () => {
  const good = raw(
    'web',
    {
      oomBumpUpRatio: '1.5',
      oomMinBumpUp: '100Mi',
      memoryAggregationIntervalSeconds: 3600,
      memoryAggregationIntervalCount: 24,
      startupBoost: { cpu: { type: 'Quantity', quantity: '500m', durationSeconds: 15 } },
    },
    { updatePolicy: { updateMode: 'InPlace', evictAfterOOMSeconds: 600 }, startupBoost: { cpu: { type: 'Factor', factor: 2 } } },
  );
  assert.equal(reviewVpa({ uid: 'u6', operation: 'CREATE', object: good }).outcome, 'allowed');
  const bad = reviewVpa({ uid: 'u7', operation: 'CREATE', object: raw('web', { oomBumpUpRatio: '0.5' }) });
  assert.equal(
    bad.response.status?.message,
    'VerticalPodAutoscaler.autoscaling.k8s.io "web" is invalid: spec.resourcePolicy.containerPolicies[0].oomBumpUpRatio: must be greater than or equal to 1 (an OOM kill never lowers memory), not 0.5',
  );
});
