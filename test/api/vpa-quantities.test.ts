import { test } from 'node:test';
import assert from 'node:assert/strict';
import { amountsToResourceList, recommendationFromStatus, recommendationToStatus, resourceListToAmounts } from '../../src/api/vpa-quantities.ts';

test('resource lists to numbers: cpu in millicores, memory in bytes', () => {
  assert.deepEqual(resourceListToAmounts({ cpu: '1.5', memory: '512Mi' }), { cpu: 1500, memory: 536_870_912 });
  assert.deepEqual(resourceListToAmounts({ cpu: '250m' }), { cpu: 250 });
  assert.deepEqual(resourceListToAmounts(undefined), {});
});

test('numbers to resource lists: whole cores, millicores, Mi/Gi where exact, fractions rounded up', () => {
  assert.deepEqual(amountsToResourceList({ cpu: 2000, memory: 1_073_741_824 }), { cpu: '2', memory: '1Gi' });
  assert.deepEqual(amountsToResourceList({ cpu: 249.2, memory: 129_000_000 }), { cpu: '250m', memory: '129000000' });
});

test('a status recommendation round-trips through numbers', () => {
  const status = {
    containerName: 'app',
    target: { cpu: '250m', memory: '256Mi' },
    lowerBound: { cpu: '100m', memory: '128Mi' },
    upperBound: { cpu: '1', memory: '1Gi' },
    uncappedTarget: { cpu: '300m', memory: '256Mi' },
  };
  const numbers = recommendationFromStatus(status);
  assert.deepEqual(numbers.target, { cpu: 250, memory: 268_435_456 });
  assert.deepEqual(numbers.uncappedTarget, { cpu: 300, memory: 268_435_456 });
  assert.deepEqual(recommendationToStatus(numbers), status);
});

test('resources left out of the status stay out', () => {
  const numbers = recommendationFromStatus({ containerName: 'app', target: { cpu: '100m' } });
  assert.deepEqual(numbers, { containerName: 'app', target: { cpu: 100 } });
});
