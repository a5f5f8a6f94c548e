import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QUANTITY_FORMAT_ERROR, QUANTITY_SUFFIX_ERROR, quantityDecodeError, vpaDecodeError } from '../../src/api/vpa-decoding.ts';

test('quantities decode as Kubernetes parses them: strings and numbers, null is none', () => {
  for (const ok of ['250m', '1.5', ' 2Gi ', '1e3', '1E-3', '+5', '0', 104857600, 1.5, null]) assert.equal(quantityDecodeError(ok), undefined, String(ok));
});

test("text of the wrong shape, or not text at all, fails with the parser's regular expression", () => {
  for (const bad of ['not-a-number', '', '1 GB', '1.2.3', '5Xi', true, { cpu: '50m' }, ['1']])
    assert.equal(quantityDecodeError(bad), QUANTITY_FORMAT_ERROR, JSON.stringify(bad));
});

test('a well-shaped text with an unknown suffix fails on the suffix', () => {
  for (const bad of ['5ki', '1e', '3mi', '2KM']) assert.equal(quantityDecodeError(bad), QUANTITY_SUFFIX_ERROR, bad);
});

test('a VPA is read in document order: the first bad quantity of any quantity field, none elsewhere', () => {
  const vpa = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) => ({
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: 'v' },
    spec,
    status,
  });
  assert.equal(
    vpaDecodeError(vpa({ resourcePolicy: { containerPolicies: [{ containerName: '*', minAllowed: { cpu: '50m' }, oomMinBumpUp: 104857600 }] } })),
    undefined,
  );
  assert.equal(
    vpaDecodeError(
      vpa({ resourcePolicy: { containerPolicies: [{ containerName: 'a' }, { containerName: 'b', maxAllowed: { memory: '5ki' }, oomBumpUpRatio: 'x' }] } }),
    ),
    QUANTITY_SUFFIX_ERROR,
  );
  assert.equal(vpaDecodeError(vpa({ startupBoost: { cpu: { type: 'Quantity', quantity: 'lots' } } })), QUANTITY_FORMAT_ERROR);
  assert.equal(vpaDecodeError(vpa({}, { recommendation: { containerRecommendations: [{ containerName: 'a', target: { cpu: {} } }] } })), QUANTITY_FORMAT_ERROR);
  // Fields that are no quantities, and structures of the wrong type, are validate-vpa.ts' to name.
  assert.equal(vpaDecodeError(vpa({ updatePolicy: { updateMode: 'lots', minReplicas: 'two' }, resourcePolicy: { containerPolicies: 'none' } })), undefined);
  assert.equal(vpaDecodeError(null), undefined);
});
