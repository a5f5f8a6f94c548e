import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tailorStrategy } from '../../../src/model/tailor/tailor-strategy.ts';
import { ModelStateError } from '../../../src/model/tailor/model-state.ts';
import type { ResourceEstimate, Strategy, UsageModel } from '../../../src/model/types.ts';
import { Random } from '../../../src/replay/workload/random.ts';

const MIN = 60_000;
const t0 = Date.UTC(2026, 0, 5);

/** Feeds minutes [from, to) of a daily cycle with noise, a step down on day 3 and an OOM kill, estimating every 5 min. */
function feed(model: UsageModel, from: number, to: number, seed: number, out: number[] = []): number[] {
  const rng = new Random(seed * 1000 + from);
  for (let i = from; i < to; i++) {
    const at = t0 + i * MIN;
    const daily = 1 + 0.5 * Math.sin((2 * Math.PI * i) / 1440);
    const level = i < 3 * 1440 ? 0.5 : 0.42;
    // Two pods: samples at the same time all count.
    for (const pod of ['a', 'b']) model.addCpuSample(level * daily * rng.between(0.8, 1.2), at, pod);
    for (const pod of ['a', 'b']) model.addMemorySample((300 + 40 * daily) * 2 ** 20 * rng.between(0.95, 1.05), at, pod);
    if (i === 2 * 1440 + 77) model.recordOom(400 * 2 ** 20, at);
    if (i % 5 === 4) {
      const e = model.estimate(at);
      if (e) out.push(...bits(e));
    }
  }
  return out;
}

function bits(e: ResourceEstimate): number[] {
  return [e.target.cpu, e.target.memory, e.lowerBound.cpu, e.lowerBound.memory, e.upperBound.cpu, e.upperBound.memory];
}

for (const [name, strategy] of [
  ['defaults', tailorStrategy()],
  [
    'hourly checks, OOMs into the history, a day plan, priced model changes, tested growth',
    tailorStrategy({ memoryCheckPastGuard: false, cpuChangeCostHours: 2, memoryTrendHours: 8 }, 'tailor', {
      oomIntoHistory: true,
      cpuModelChangePriceCoreHours: 0.1,
    }),
  ],
] as Array<[string, Strategy]>) {
  test(`a model restored from its saved state answers exactly as the one that never stopped (${name})`, () => {
    for (const stopAt of [30, 1440 + 333, 3 * 1440 + 59, 6 * 1440]) {
      const running = strategy.newModel();
      feed(running, 0, stopAt, 1);
      const state = strategy.saveModel!(running);
      const resumed = strategy.restoreModel!(state);
      const expected = feed(running, stopAt, 8 * 1440, 1);
      const got = feed(resumed, stopAt, 8 * 1440, 1);
      assert.ok(expected.length > 1000);
      assert.deepEqual(got, expected, `stopped after minute ${stopAt}`);
    }
  });
}

test('the state of a model with 8 days of samples is a few KiB (it goes into an annotation: 256 KiB per object)', () => {
  const strategy = tailorStrategy();
  const model = strategy.newModel();
  feed(model, 0, 8 * 1440, 2);
  const state = strategy.saveModel!(model);
  assert.ok(state.length < 4096, `${state.length} bytes`);
});

test('a corrupt, truncated, foreign or differently configured state is refused with a reason, never half-used', () => {
  const strategy = tailorStrategy();
  const model = strategy.newModel();
  feed(model, 0, 1440, 3);
  const state = strategy.saveModel!(model);
  const flipped = state.slice();
  flipped[100] = flipped[100]! ^ 1;
  assert.throws(
    () => strategy.restoreModel!(flipped),
    (err) => err instanceof ModelStateError && /checksum/.test(err.message),
  );
  assert.throws(() => strategy.restoreModel!(state.subarray(0, 10)), ModelStateError);
  assert.throws(() => strategy.restoreModel!(new TextEncoder().encode('{"not":"a state at all, but long enough"}')), ModelStateError);
  // Another format version: the checksum is right, the version is not.
  const other = tailorStrategy({ cpuQuantile: 0.95 });
  assert.throws(
    () => other.restoreModel!(state),
    (err) => err instanceof ModelStateError && /settings/.test(err.message),
  );
  const wrongFormat = state.slice();
  wrongFormat[4] = 99;
  assert.throws(() => strategy.restoreModel!(wrongFormat), ModelStateError);
});
