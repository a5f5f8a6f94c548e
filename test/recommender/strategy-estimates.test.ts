import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strategyEstimates } from '../../src/recommender/strategy-estimates.ts';
import type { ResourceEstimate, UsageModel } from '../../src/model/types.ts';

const MiB = 1024 * 1024;

function fixed(e: ResourceEstimate | undefined): UsageModel {
  return { addCpuSample() {}, addMemorySample() {}, recordOom() {}, estimate: () => e };
}

const early: ResourceEstimate = {
  target: { cpu: 500, memory: 300 * MiB },
  lowerBound: { cpu: 400, memory: 300 * MiB },
  upperBound: { cpu: 625, memory: Infinity },
};

test('an infinite memory upper bound becomes the largest current request (512 MiB), at least the target (300 MiB)', () => {
  const models = new Map([
    ['app', fixed(early)],
    ['sidecar', fixed(early)],
    ['new', fixed(undefined)],
  ]);
  const out = strategyEstimates(models, 0, (c) => (c === 'app' ? { memory: 512 * MiB } : {}));
  assert.deepEqual([...out.keys()], ['app', 'sidecar'], 'a model without an estimate gives none');
  assert.equal(out.get('app')!.upperBound.memory, 512 * MiB);
  assert.equal(out.get('sidecar')!.upperBound.memory, 300 * MiB);
  assert.equal(out.get('app')!.upperBound.cpu, 625, 'finite bounds are kept');
});

test('the estimates are copies: a model reusing its answer object does not change them later', () => {
  const shared: ResourceEstimate = { target: { cpu: 100, memory: MiB }, lowerBound: { cpu: 80, memory: MiB }, upperBound: { cpu: 125, memory: 2 * MiB } };
  const out = strategyEstimates(new Map([['app', fixed(shared)]]), 0, () => ({}));
  shared.target.cpu = 999;
  shared.upperBound.memory = 0;
  assert.equal(out.get('app')!.target.cpu, 100);
  assert.equal(out.get('app')!.upperBound.memory, 2 * MiB);
});
