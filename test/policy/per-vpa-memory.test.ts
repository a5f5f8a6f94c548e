import { test } from 'node:test';
import assert from 'node:assert/strict';
import { perVpaMemorySettings } from '../../src/policy/per-vpa-memory.ts';

test('a container\'s own policy wins over "*"; quantities and seconds become the model\'s units', () => {
  const policy = {
    containerPolicies: [
      { containerName: '*', oomBumpUpRatio: '1.5', oomMinBumpUp: '100Mi', memoryAggregationIntervalSeconds: 3600, memoryAggregationIntervalCount: 24 },
      { containerName: 'db', oomBumpUpRatio: '3' },
    ],
  };
  assert.deepEqual(perVpaMemorySettings(policy, 'app'), {
    oomBumpUpRatio: 1.5,
    oomMinBumpUpBytes: 104857600,
    memoryAggregationIntervalMs: 3_600_000,
    memoryAggregationIntervalCount: 24,
  });
  assert.deepEqual(perVpaMemorySettings(policy, 'db'), { oomBumpUpRatio: 3 }, 'a named policy replaces "*" entirely, as upstream');
  assert.deepEqual(perVpaMemorySettings(undefined, 'app'), {});
  assert.deepEqual(perVpaMemorySettings({ containerPolicies: [{ containerName: 'other', oomBumpUpRatio: '2' }] }, 'app'), {});
});
