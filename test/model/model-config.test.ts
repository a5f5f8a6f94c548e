import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultModelConfig, withMemorySettings } from '../../src/model/model-config.ts';

test("withMemorySettings: a VPA's memory settings over the config, its buckets shared, one object per set of settings", () => {
  const base = defaultModelConfig();
  const derived = withMemorySettings(base, { oomBumpUpRatio: 3, memoryAggregationIntervalMs: 3_600_000, oomMinBumpUpBytes: undefined });
  assert.equal(derived.options.oomBumpUpRatio, 3);
  assert.equal(derived.options.memoryAggregationIntervalMs, 3_600_000);
  assert.equal(derived.options.oomMinBumpUpBytes, base.options.oomMinBumpUpBytes);
  assert.equal(derived.memoryBuckets, base.memoryBuckets);
  assert.equal(withMemorySettings(base, { memoryAggregationIntervalMs: 3_600_000, oomBumpUpRatio: 3 }), derived);
  assert.equal(withMemorySettings(base, {}), base);
  assert.throws(() => withMemorySettings(base, { oomBumpUpRatio: 0.5 }), /oomBumpUpRatio/);
});
