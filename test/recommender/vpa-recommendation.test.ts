import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameRecommendation, vpaRecommendation } from '../../src/recommender/vpa-recommendation.ts';
import { AggregateContainerState } from '../../src/model/aggregate-container-state.ts';
import { defaultModelConfig } from '../../src/model/model-config.ts';

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
  const states = new Map([
    ['z', steady(0.5, 10)],
    ['a', steady(0.5, 10)],
    ['off', steady(1, 10)],
    ['empty', new AggregateContainerState(defaultModelConfig())],
  ]);
  const r = vpaRecommendation(states, { containerPolicies: [{ containerName: 'off', mode: 'Off' }] });
  assert.deepEqual(
    r.recommendation.containerRecommendations!.map((c) => c.containerName),
    ['a', 'z'],
  );
});

test('a container with OOM kills and no sample is recommended from them (upstream since 0.13); memory samples alone are not enough (decision 0298)', () => {
  const MiB = 2 ** 20;
  const killed = new AggregateContainerState(defaultModelConfig());
  assert.ok(killed.recordOom(48 * MiB, T0));
  const memoryOnly = new AggregateContainerState(defaultModelConfig());
  memoryOnly.addMemorySample(100 * MiB, T0);
  const r = vpaRecommendation(
    new Map([
      ['app', killed],
      ['sidecar', memoryOnly],
    ]),
    {
      containerPolicies: [{ containerName: '*', minAllowed: { cpu: '30m', memory: '32Mi' }, maxAllowed: { cpu: '60m', memory: '128Mi' } }],
    },
  );
  assert.deepEqual(
    r.recommendation.containerRecommendations!.map((c) => c.containerName),
    ['app'],
  );
  const app = r.recommendation.containerRecommendations![0]!;
  // Upstream v1.8.1's own numbers (the golden test's synthetic-oom-at-start): CPU 25m, memory 250Mi
  // (the 148Mi bump + 15% is below the per-pod floor, which is not split: sidecar gets no estimate).
  assert.deepEqual(app.uncappedTarget, { cpu: '25m', memory: '250Mi' });
  assert.deepEqual(app.target, { cpu: '30m', memory: '128Mi' });
  assert.deepEqual(r.lowConfidence, ['app']);
  assert.deepEqual(r.oomKillsOnly, ['app']);
  assert.equal(vpaRecommendation(new Map([['app', steady(0.5, 10)]]), undefined).oomKillsOnly, undefined);
});

test('a day of minute samples is full confidence: no LowConfidence', () => {
  assert.deepEqual(vpaRecommendation(new Map([['app', steady(0.5, 1441)]]), undefined).lowConfidence, []);
});

/** 0.5 core and ~224 MiB of memory (off the MiB grid), two hours of minute samples. */
function busy(): AggregateContainerState {
  const s = steady(0.5, 120);
  for (let i = 0; i < 120; i++) s.addMemorySample(235_000_000, T0 + i * MIN);
  return s;
}

test("rounding: memory up to 1Mi and cpu up to 10m in target, bounds and uncappedTarget; factors of 1 give upstream's exact figures", () => {
  const states = new Map([['app', busy()]]);
  const exact = vpaRecommendation(states, undefined).recommendation.containerRecommendations![0]!;
  assert.match(exact.target.memory!, /^\d+$/, `the premise: upstream's default writes bytes (${exact.target.memory})`);
  const parity = vpaRecommendation(states, undefined, { cpuMillicores: 1, memoryBytes: 1 }).recommendation;
  assert.ok(sameRecommendation(parity, vpaRecommendation(states, undefined).recommendation), 'rounding off: the same status as without the options');
  const rounded = vpaRecommendation(states, undefined, { cpuMillicores: 10, memoryBytes: 2 ** 20 }).recommendation.containerRecommendations![0]!;
  for (const bound of ['target', 'lowerBound', 'upperBound', 'uncappedTarget'] as const) {
    assert.match(rounded[bound]!.memory!, /^\d+(Mi|Gi)$/, `${bound} ${rounded[bound]!.memory}`);
    assert.match(rounded[bound]!.cpu!, /^(\d+0m|\d+)$/, `${bound} ${rounded[bound]!.cpu}`);
    const up = Math.ceil(Number(exact[bound]!.memory) / 2 ** 20);
    assert.equal(rounded[bound]!.memory, `${up}Mi`, `${bound}: rounded up, never down`);
  }
});

test('rounding never leaves [minAllowed, maxAllowed]: an off-grid bound is met exactly, as upstream caps after rounding', () => {
  const states = new Map([['app', busy()]]);
  const rounding = { cpuMillicores: 10, memoryBytes: 2 ** 20 };
  const exact = vpaRecommendation(states, undefined).recommendation.containerRecommendations![0]!;
  // maxAllowed a byte above the exact target: the rounded target (up to 1Mi) would pass it, so it is capped to it.
  const max = String(Number(exact.target.memory) + 1);
  const capped = vpaRecommendation(states, { containerPolicies: [{ containerName: '*', maxAllowed: { memory: max, cpu: '583m' } }] }, rounding).recommendation
    .containerRecommendations![0]!;
  assert.equal(capped.target.memory, max);
  assert.equal(capped.target.cpu, '583m');
  assert.equal(capped.upperBound!.memory, max);
  assert.match(capped.uncappedTarget!.memory!, /Mi$/);
  // minAllowed off the grid above the target: raised to it exactly, not to the next MiB.
  const min = '1000000001';
  const raised = vpaRecommendation(states, { containerPolicies: [{ containerName: '*', minAllowed: { memory: min } }] }, rounding).recommendation
    .containerRecommendations![0]!;
  assert.equal(raised.target.memory, min);
  assert.equal(raised.lowerBound!.memory, min);
});
