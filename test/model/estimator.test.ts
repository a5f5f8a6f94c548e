import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AggregateContainerState } from '../../src/model/aggregate-container-state.ts';
import { confidenceFactor, historyConfidence } from '../../src/model/confidence.ts';
import { containerFloors, estimateContainer, estimatePodContainers, scaleResourceAmount, toResourceAmount } from '../../src/model/estimator.ts';
import { createModelConfig, defaultModelConfig } from '../../src/model/model-config.ts';
import { MODEL_DEFAULTS } from '../../src/model/model-options.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MiB = 1024 * 1024;
const t = Date.UTC(2026, 0, 10);
const config = defaultModelConfig();
const MAX = MODEL_DEFAULTS.maxResourceAmount;

test('confidence multipliers: upper x3 at 12h, x2 at 24h, x1.14 at a week, unbounded with none', () => {
  const upper = (c: number): number => confidenceFactor(MODEL_DEFAULTS.upperBoundConfidenceMultiplier, MODEL_DEFAULTS.upperBoundConfidenceExponent, c);
  assert.equal(upper(0.5), 3);
  assert.equal(upper(1), 2);
  assert.equal(upper(7).toFixed(2), '1.14'); // 8/7
  assert.equal(upper(0), Infinity);
});

test('confidence multipliers: lower x0 with no history, x0.60 at 5 min, x0.95 at 1h', () => {
  const lower = (c: number): number => confidenceFactor(MODEL_DEFAULTS.lowerBoundConfidenceMultiplier, MODEL_DEFAULTS.lowerBoundConfidenceExponent, c);
  assert.equal(lower(0), 0);
  assert.equal(lower(5 / 1440).toFixed(2), '0.60');
  assert.equal(lower(30 / 1440).toFixed(2), '0.91');
  assert.equal(lower(60 / 1440).toFixed(2), '0.95');
  assert.equal(confidenceFactor(0, 1, 0), 1); // a zero multiplier never divides 0 by 0
});

test('confidence is min(lifespan days, samples/1440): 9 samples 2 min apart -> 0.00625 (upstream numbers)', () => {
  const s = new AggregateContainerState(config);
  for (let i = 0; i < 9; i++) s.addCpuSample(1, t + i * 2 * MINUTE);
  // lifespan 16 min = 0.0111 days; 9 samples / 1440 = 0.00625
  assert.equal(historyConfidence(s), 0.00625);
  // upstream's worked scaling: 3.14 cores x (1 + 0.1/0.00625)^2 = 907.46 cores
  assert.equal(scaleResourceAmount(3140, confidenceFactor(0.1, 2, historyConfidence(s)), MAX), 907460);
  assert.equal(historyConfidence(new AggregateContainerState(config)), 0);
});

test('confidence follows the lifespan when samples are dense: 2 samples a minute for 12h -> 0.5', () => {
  const s = new AggregateContainerState(config);
  for (let i = 0; i <= 1440; i++) s.addCpuSample(1, t + i * 30_000);
  assert.equal(historyConfidence(s), 0.5);
});

test('resource amounts truncate, saturate and never become NaN', () => {
  assert.equal(toResourceAmount(3.9, MAX), 3);
  assert.equal(toResourceAmount(-1, MAX), 0);
  assert.equal(toResourceAmount(Number.NaN, MAX), 0);
  assert.equal(toResourceAmount(Infinity, MAX), MAX);
  assert.equal(scaleResourceAmount(0, Infinity, MAX), 0);
  assert.equal(scaleResourceAmount(5, Infinity, MAX), MAX);
  assert.equal(scaleResourceAmount(5, 0, MAX), 0);
  // upstream margin example: 3.14 cores + 10% = 3.454 cores
  assert.equal(3140 + scaleResourceAmount(3140, 0.1, MAX), 3454);
});

test('floors: 25m and 250 MiB per pod, split across its containers', () => {
  assert.deepEqual(containerFloors(25, 250 * MiB, 1, MAX), { cpu: 25, memory: 262144000 });
  assert.deepEqual(containerFloors(25, 250 * MiB, 2, MAX), { cpu: 12, memory: 131072000 });
  assert.deepEqual(containerFloors(25, 250 * MiB, 3, MAX), { cpu: 8, memory: 87381333 });
  assert.deepEqual(containerFloors(25, 250 * MiB, 0, MAX), { cpu: 25, memory: 262144000 }); // treated as 1
});

test('with no history span the upper bound saturates at maxResourceAmount and the lower bound is the floor', () => {
  const s = new AggregateContainerState(config);
  s.addCpuSample(0.5, t); // one sample: lifespan 0 -> confidence 0
  s.addMemorySample(500 * MiB, t);
  const e = estimateContainer(s)!;
  assert.deepEqual(e.upperBound, { cpu: 1e14, memory: 1e14 });
  assert.deepEqual(e.lowerBound, { cpu: 25, memory: 250 * MiB }); // x0, then the floors
  assert.equal(e.target.cpu, 587);
});

test('percentiles of the upstream example: p20 of CPU {1, 2, 3} ~ 1 core, p50 of memory {1, 2, 3} GB ~ 2 GB', () => {
  const s = new AggregateContainerState(config);
  for (const v of [1, 2, 3]) s.cpu.addSample(v, 1, t);
  for (const v of [1e9, 2e9, 3e9]) s.memoryPeaks.addSample(v, 1, t);
  assert.ok(Math.abs(s.cpu.percentile(0.2) - 1) / 1 < 0.05);
  assert.ok(Math.abs(s.memoryPeaks.percentile(0.5) - 2e9) / 2e9 < 0.05);
});

test('OOM bumps reach the memory target', () => {
  const s = new AggregateContainerState(config);
  for (let i = 0; i <= 1440; i++) {
    s.addCpuSample(0.1, t + i * MINUTE);
    s.addMemorySample(800 * MiB, t + i * MINUTE);
  }
  const before = estimateContainer(s)!.target.memory;
  // the last sample (t + 24h) opened a second interval; an OOM in it with request 1000 MiB > peak
  // 800 MiB replaces that interval's peak with 1200 MiB
  assert.equal(s.recordOom(1000 * MiB, t + 25 * HOUR), true);
  // As upstream v1.8.1: an OOM more than 24h before the last memory sample (here t + 25h, the OOM's
  // own time) is too old; one within 24h is taken even when its interval is closed.
  assert.equal(s.recordOom(1000 * MiB, t + 1 * HOUR - 1), false);
  const after = estimateContainer(s)!.target.memory;
  const buckets = config.memoryBuckets;
  const end = Math.floor(buckets.bucketStart(buckets.findBucket(1200 * MiB) + 1));
  assert.ok(after > before);
  assert.equal(after, end + Math.floor(end * 0.15));
});

test('property: estimates are whole, finite, within [0, max] and ordered lower <= target <= upper', () => {
  const sample = fc.record({
    minute: fc.integer({ min: 0, max: 20 * 1440 }),
    cores: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 5000, noNaN: true })),
    bytes: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 5e12, noNaN: true })),
    oom: fc.boolean(),
    pod: fc.constantFrom('a', 'b', 'c'),
  });
  fc.assert(
    fc.property(fc.array(sample, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 4 }), (samples, containers) => {
      const s = new AggregateContainerState(config);
      for (const x of samples.sort((a, b) => a.minute - b.minute)) {
        const at = t + x.minute * MINUTE;
        s.addCpuSample(x.cores, at, x.pod);
        if (x.oom) s.recordOom(x.bytes, at, x.pod);
        else s.addMemorySample(x.bytes, at, x.pod);
      }
      const e = estimateContainer(s, containers);
      if (s.totalSamplesCount === 0) return e === undefined;
      assert.ok(e);
      for (const r of ['cpu', 'memory'] as const) {
        for (const v of [e.lowerBound[r], e.target[r], e.upperBound[r]]) assert.ok(Number.isInteger(v) && v >= 0 && v <= MAX, `${r} ${v}`);
        assert.ok(e.lowerBound[r] <= e.target[r] && e.target[r] <= e.upperBound[r], `${r} order`);
      }
      return true;
    }),
    { numRuns: 200, seed: 42 },
  );
});

test('estimates with other options: p100 target, no margin, one-container floors off', () => {
  const custom = createModelConfig({ targetCpuPercentile: 1, safetyMarginFraction: 0, podMinCpuMillicores: 0, podMinMemoryBytes: 0 });
  const s = new AggregateContainerState(custom);
  s.addCpuSample(0.001, t);
  s.addCpuSample(0.25, t + MINUTE);
  const e = estimateContainer(s)!;
  assert.equal(e.target.cpu, Math.floor(custom.cpuBuckets.bucketStart(custom.cpuBuckets.findBucket(0.25) + 1) * 1000));
  assert.equal(e.target.memory, 0); // no memory sample and no floor
});

test('pod estimates: containers without CPU samples get none, and the floors split across the rest', () => {
  const withSamples = (cores: number): AggregateContainerState => {
    const s = new AggregateContainerState(config);
    s.addCpuSample(cores, t);
    s.addCpuSample(cores, t + MINUTE);
    return s;
  };
  const states = new Map([
    ['app', withSamples(0.001)],
    ['sidecar', withSamples(0.001)],
    ['idle', new AggregateContainerState(config)],
  ]);
  const estimates = estimatePodContainers(states);
  assert.deepEqual([...estimates.keys()], ['app', 'sidecar']);
  assert.deepEqual(estimates.get('app')!.target, { cpu: 12, memory: 125 * MiB }); // 25m / 2, 250 MiB / 2
});
