import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MODEL_DEFAULTS, ModelOptionsError, resolveModelOptions } from '../../src/model/model-options.ts';

test('the defaults are the upstream ones', () => {
  assert.equal(MODEL_DEFAULTS.targetCpuPercentile, 0.9);
  assert.equal(MODEL_DEFAULTS.lowerBoundMemoryPercentile, 0.5);
  assert.equal(MODEL_DEFAULTS.upperBoundCpuPercentile, 0.95);
  assert.equal(MODEL_DEFAULTS.safetyMarginFraction, 0.15);
  assert.equal(MODEL_DEFAULTS.cpuHalfLifeMs, 24 * 3_600_000);
  assert.equal(MODEL_DEFAULTS.memoryAggregationIntervalCount, 8);
  assert.equal(MODEL_DEFAULTS.oomMinBumpUpBytes, 104857600);
  assert.equal(MODEL_DEFAULTS.podMinMemoryBytes, 262144000);
  assert.equal(MODEL_DEFAULTS.cpuSampleWeight, 0.1);
  assert.ok(Object.isFrozen(MODEL_DEFAULTS));
  assert.deepEqual(resolveModelOptions(), MODEL_DEFAULTS);
});

test('overrides apply and are validated, naming the option', () => {
  assert.equal(resolveModelOptions({ safetyMarginFraction: 0.3 }).safetyMarginFraction, 0.3);
  assert.equal(resolveModelOptions({ safetyMarginFraction: undefined }).safetyMarginFraction, 0.15);
  const bad: [Record<string, unknown>, string][] = [
    [{ targetCpuPercentile: 1.5 }, 'targetCpuPercentile'],
    [{ bucketGrowthRatio: 1 }, 'bucketGrowthRatio'],
    [{ cpuHalfLifeMs: 0 }, 'cpuHalfLifeMs'],
    [{ memoryAggregationIntervalCount: 2.5 }, 'memoryAggregationIntervalCount'],
    [{ oomBumpUpRatio: 0.9 }, 'oomBumpUpRatio'],
    [{ podMinCpuMillicores: Number.NaN }, 'podMinCpuMillicores'],
    [{ maxDecayExponent: 2000 }, 'maxDecayExponent'],
    [{ safetyMarginFraction: '0.2' }, 'safetyMarginFraction'],
    [{ noSuchOption: 1 }, 'noSuchOption'],
  ];
  for (const [overrides, option] of bad) {
    assert.throws(
      () => resolveModelOptions(overrides as never),
      (err: unknown) => err instanceof ModelOptionsError && err.option === option && err.message.startsWith(`model option ${option}:`),
      option,
    );
  }
});
