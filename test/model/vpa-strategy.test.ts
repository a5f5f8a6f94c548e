import { test } from 'node:test';
import assert from 'node:assert/strict';
import { vpaStrategy, VpaUsageModel } from '../../src/model/vpa-strategy.ts';
import { createStrategyRegistry } from '../../src/model/builtin-strategies.ts';
import { StrategyRegistry, StrategyRegistryError } from '../../src/model/strategy-registry.ts';
import type { Strategy } from '../../src/model/types.ts';
import { loadAggregateCheckpoint, saveAggregateCheckpoint } from '../../src/model/aggregate-checkpoint.ts';
import { createModelConfig, defaultModelConfig } from '../../src/model/model-config.ts';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const MiB = 1024 * 1024;
const t0 = Date.UTC(2026, 0, 10);

/** A steady 0.5 core and 200 MiB, one sample per minute for `minutes` minutes (minutes + 1 samples). */
function steadyModel(minutes: number, strategy: Strategy = vpaStrategy()): VpaUsageModel {
  const model = strategy.newModel() as VpaUsageModel;
  for (let i = 0; i <= minutes; i++) {
    model.addCpuSample(0.5, t0 + i * MINUTE);
    model.addMemorySample(200 * MiB, t0 + i * MINUTE);
  }
  return model;
}

test('vpa: no estimate before the first CPU sample', () => {
  const model = vpaStrategy().newModel();
  assert.equal(model.estimate(t0), undefined);
  model.addMemorySample(100 * MiB, t0); // memory alone is not enough, as upstream
  assert.equal(model.estimate(t0), undefined);
});

test('vpa: a steady 0.5 core gives a 587m target (bucket end 511m + 15%)', () => {
  const estimate = steadyModel(1440).estimate(t0 + 1440 * MINUTE)!;
  // 0.5 core is in bucket 25 = [0.4773, 0.5111) cores: p90 = 511m; 511 + floor(511 x 0.15) = 587
  assert.equal(estimate.target.cpu, 587);
  // 200 MiB is in memory bucket 14 = [196.0 MB, 215.8 MB): 215785635 + 15% = 248153480 < 250 MiB floor
  assert.equal(estimate.target.memory, 250 * MiB);
});

test('vpa: the upper bound is x3 at 12h, x2 at 24h and x8/7 at a week of minute samples', () => {
  assert.equal(steadyModel(720).estimate(0)!.upperBound.cpu, 587 * 3); // c = 0.5
  assert.equal(steadyModel(1440).estimate(0)!.upperBound.cpu, 587 * 2); // c = 1
  assert.equal(steadyModel(7 * 1440).estimate(0)!.upperBound.cpu, Math.floor((587 * 8) / 7)); // c = 7: 670
  // memory upper bound at 24h: 248153480 x 2 (above the floor)
  assert.equal(steadyModel(1440).estimate(0)!.upperBound.memory, 496306960);
});

test('vpa: the lower bound is x0.60 at 5 min, x0.91 at 30 min, x0.95 at 1h', () => {
  // (1 + 0.001/c)^-2 with c = 5/1440, 30/1440, 60/1440 days
  assert.equal(steadyModel(5).estimate(0)!.lowerBound.cpu, 353); // 587 x 0.6028
  assert.equal(steadyModel(30).estimate(0)!.lowerBound.cpu, 534); // 587 x 0.9104
  assert.equal(steadyModel(60).estimate(0)!.lowerBound.cpu, 559); // 587 x 0.9537
});

test('vpa: per-pod floors are split across the containers of the pod', () => {
  const strategy = vpaStrategy();
  const model = strategy.newModel({ containersInPod: 2 });
  model.addCpuSample(0.001, t0); // tiny usage: floors win
  model.addMemorySample(1e6, t0);
  const estimate = model.estimate(t0)!;
  assert.deepEqual(estimate.target, { cpu: 12, memory: 125 * MiB }); // floor(25/2), 250 MiB / 2
});

test('vpa: option overrides change the model', () => {
  const estimate = steadyModel(1440, vpaStrategy({ safetyMarginFraction: 0 })).estimate(0)!;
  assert.equal(estimate.target.cpu, 511);
  assert.throws(() => vpaStrategy({ targetCpuPercentile: 2 }), /targetCpuPercentile/);
});

test('strategy registry: the built-ins include vpa; names are unique', () => {
  const registry = createStrategyRegistry();
  assert.ok(registry.names().includes('vpa'));
  assert.equal(registry.get('vpa').name, 'vpa');
  assert.throws(() => registry.register(vpaStrategy()), StrategyRegistryError);
  assert.throws(() => registry.get('nope'), /unknown strategy "nope"; known: vpa, tailor, tailor-low-churn/);
  assert.throws(() => new StrategyRegistry().register(vpaStrategy({}, 'Bad Name')), /invalid/);
  registry.register(vpaStrategy({ safetyMarginFraction: 0.3 }, 'vpa-30'));
  assert.deepEqual(registry.names(), ['vpa', 'tailor', 'tailor-low-churn', 'vpa-30']);
});

test('vpa: a model resumes from a checkpointed state and keeps learning', () => {
  const config = defaultModelConfig();
  const first = steadyModel(1440);
  const status = JSON.parse(JSON.stringify(saveAggregateCheckpoint(first.state, t0 + DAY))) as unknown;
  const resumed = new VpaUsageModel(config, 1, loadAggregateCheckpoint(config, status));
  assert.deepEqual(resumed.estimate(t0 + DAY), first.estimate(t0 + DAY));
  for (let i = 1; i <= 1440; i++) resumed.addCpuSample(0.5, t0 + DAY + i * MINUTE);
  assert.equal(resumed.state.totalSamplesCount, 1441 + 1440);
  assert.throws(() => new VpaUsageModel(createModelConfig({ cpuSampleWeight: 1 }), 1, loadAggregateCheckpoint(config, status)), /different model config/);
});
