import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ignoredSettings } from '../../src/recommender/ignored-settings.ts';

const policy = {
  containerPolicies: [
    { containerName: '*', oomBumpUpRatio: '2' },
    { containerName: 'db', memoryAggregationIntervalSeconds: 3600, memoryAggregationIntervalCount: 24 },
  ],
};

test("upstream's memory aggregation settings are applied by the vpa strategy only; the OOM bump by every strategy", () => {
  assert.equal(ignoredSettings(policy, 'vpa'), undefined);
  assert.equal(
    ignoredSettings(policy, 'tailor'),
    'memoryAggregationIntervalSeconds and memoryAggregationIntervalCount of container policy "db" not applied: the tailor strategy keeps its own memory history (hourly peaks over 7 days), not upstream\'s aggregation intervals; --recommender-strategy vpa applies them',
  );
  assert.equal(ignoredSettings({ containerPolicies: [{ containerName: '*', oomBumpUpRatio: '2', oomMinBumpUp: '1Gi' }] }, 'tailor-low-churn'), undefined);
  assert.equal(ignoredSettings(undefined, 'tailor'), undefined);
});
