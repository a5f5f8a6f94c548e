import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capRecommendation } from '../../src/policy/cap-recommendation.ts';
import { MiB } from './fixtures.ts';

const rec = {
  containerName: 'app',
  target: { cpu: 2500, memory: 100 * MiB },
  lowerBound: { cpu: 1000, memory: 50 * MiB },
  upperBound: { cpu: 5000, memory: 300 * MiB },
};

test('target and bounds are clamped to min/maxAllowed; uncappedTarget keeps the target', () => {
  const { recommendation, reasons } = capRecommendation(rec, {
    containerPolicies: [{ containerName: 'app', minAllowed: { memory: '128Mi' }, maxAllowed: { cpu: '2' } }],
  });
  assert.deepEqual(recommendation, {
    containerName: 'app',
    target: { cpu: 2000, memory: 128 * MiB },
    uncappedTarget: { cpu: 2500, memory: 100 * MiB },
    lowerBound: { cpu: 1000, memory: 128 * MiB },
    upperBound: { cpu: 2000, memory: 300 * MiB },
  });
  assert.deepEqual(
    reasons.map((r) => [r.code, r.resource]),
    [
      ['CappedToMaxAllowed', 'cpu'],
      ['RaisedToMinAllowed', 'memory'],
    ],
  );
  assert.equal(reasons[0]?.message, 'cpu: target 2500m capped to maxAllowed 2000m');
});

test('uncontrolled resources are dropped from the recommendation', () => {
  const { recommendation } = capRecommendation(rec, { containerPolicies: [{ containerName: '*', controlledResources: ['memory'] }] });
  assert.deepEqual(recommendation?.target, { memory: 100 * MiB });
  assert.deepEqual(recommendation?.upperBound, { memory: 300 * MiB });
});

test('mode Off gives no recommendation', () => {
  const { recommendation } = capRecommendation(rec, { containerPolicies: [{ containerName: 'app', mode: 'Off' }] });
  assert.equal(recommendation, undefined);
});

test('no policy: the recommendation is unchanged', () => {
  const { recommendation, reasons } = capRecommendation(rec, undefined);
  assert.deepEqual(recommendation, { ...rec, uncappedTarget: rec.target });
  assert.deepEqual(reasons, []);
});
