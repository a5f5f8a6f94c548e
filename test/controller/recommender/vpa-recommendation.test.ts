import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameRecommendation, vpaRecommendation } from '../../../src/controller/recommender/vpa-recommendation.ts';
import { AggregateContainerState } from '../../../src/recommender/aggregate-container-state.ts';
import { defaultModelConfig } from '../../../src/recommender/model-config.ts';

const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;

function steady(cores: number, minutes: number): AggregateContainerState {
  const s = new AggregateContainerState(defaultModelConfig());
  for (let i = 0; i < minutes; i++) s.addCpuSample(cores, T0 + i * MIN);
  return s;
}

test('a steady 0.5 core: target 587m; maxAllowed 500m caps it and uncappedTarget keeps 587m', () => {
  const states = new Map([['app', steady(0.5, 120)]]);
  const free = vpaRecommendation(states, undefined);
  assert.equal(free.recommendation.containerRecommendations![0]!.target.cpu, '587m');
  assert.deepEqual(free.lowConfidence, ['app'], 'two hours of history is less than a day');
  const capped = vpaRecommendation(states, { containerPolicies: [{ containerName: '*', maxAllowed: { cpu: '500m' } }] });
  const c = capped.recommendation.containerRecommendations![0]!;
  assert.equal(c.target.cpu, '500m');
  assert.equal(c.uncappedTarget!.cpu, '587m');
  assert.ok(sameRecommendation(free.recommendation, vpaRecommendation(states, undefined).recommendation));
  assert.ok(!sameRecommendation(free.recommendation, capped.recommendation));
});

test('containers sorted by name; mode Off and containers without samples get nothing', () => {
  const states = new Map([['z', steady(0.5, 10)], ['a', steady(0.5, 10)], ['off', steady(1, 10)], ['empty', new AggregateContainerState(defaultModelConfig())]]);
  const r = vpaRecommendation(states, { containerPolicies: [{ containerName: 'off', mode: 'Off' }] });
  assert.deepEqual(r.recommendation.containerRecommendations!.map((c) => c.containerName), ['a', 'z']);
});

test('a day of minute samples is full confidence: no LowConfidence', () => {
  assert.deepEqual(vpaRecommendation(new Map([['app', steady(0.5, 1441)]]), undefined).lowConfidence, []);
});
