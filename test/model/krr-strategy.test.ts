import { test } from 'node:test';
import assert from 'node:assert/strict';
import { krrStrategy } from '../../src/model/krr-strategy.ts';

const MIN = 60_000;
const DAY = 86_400_000;

test('krr gives nothing before 100 samples', () => {
  const model = krrStrategy().newModel();
  for (let i = 0; i < 99; i++) {
    model.addCpuSample(0.2, i * MIN);
    model.addMemorySample(1e9, i * MIN);
  }
  assert.equal(model.estimate(99 * MIN), undefined);
  model.addCpuSample(0.2, 99 * MIN);
  model.addMemorySample(1e9, 99 * MIN);
  assert.notEqual(model.estimate(100 * MIN), undefined);
});

test('krr: CPU p95, memory max + 15%, over 14 days only', () => {
  // 1,000 samples: 960 at 0.2 cores, 40 (4%) at 1 core -> p95 = 0.2 cores = 200m.
  // Memory peaks at 1,000 MB once -> 1,150 MB.
  const model = krrStrategy().newModel();
  for (let i = 0; i < 1000; i++) {
    model.addCpuSample(i % 25 === 0 ? 1 : 0.2, i * MIN);
    model.addMemorySample(i === 500 ? 1e9 : 6e8, i * MIN);
  }
  const e = model.estimate(1000 * MIN);
  assert.ok(e !== undefined);
  assert.ok(e.target.cpu >= 200 && e.target.cpu <= 202, `cpu ${e.target.cpu}`);
  assert.ok(Math.abs(e.target.memory - 1.15e9) < 1);
  // 60 (6%) at 1 core instead: p95 is now 1 core.
  const spiky = krrStrategy().newModel();
  for (let i = 0; i < 1000; i++) spiky.addCpuSample(i % 50 < 3 ? 1 : 0.2, i * MIN);
  assert.ok((spiky.estimate(1000 * MIN)?.target.cpu ?? 0) >= 1000);
  // 14 days later the 1,000 MB peak and the CPU samples have left the window.
  for (let i = 0; i < 200; i++) {
    model.addCpuSample(0.1, 15 * DAY + i * MIN);
    model.addMemorySample(5e8, 15 * DAY + i * MIN);
  }
  const later = model.estimate(15 * DAY + 200 * MIN);
  assert.ok(later !== undefined);
  assert.ok(Math.abs(later.target.memory - 5.75e8) < 1);
  assert.ok(later.target.cpu >= 100 && later.target.cpu <= 101);
});

test('krr publishes no bounds: only the updater age-and-difference rule moves it', () => {
  const model = krrStrategy().newModel();
  for (let i = 0; i < 100; i++) model.addCpuSample(0.5, i * MIN);
  const e = model.estimate(100 * MIN);
  assert.equal(e?.lowerBound.cpu, 0);
  assert.equal(e?.upperBound.cpu, Infinity);
});
