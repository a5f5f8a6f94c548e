import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AggregateContainerState } from '../../src/model/aggregate-container-state.ts';
import { createModelConfig, defaultModelConfig } from '../../src/model/model-config.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
const MiB = 1024 * 1024;
const t = Date.UTC(2026, 0, 10);
const config = defaultModelConfig();

test('CPU samples weigh 0.1 each, and count with their first and last times', () => {
  const s = new AggregateContainerState(config);
  assert.equal(s.addCpuSample(0.5, t + 2 * MINUTE), true);
  assert.equal(s.addCpuSample(0.5, t + 3 * MINUTE), true);
  // both at the reference time's day: decay factors 2^(2min/24h) and 2^(3min/24h)
  const expected = 0.1 * (2 ** ((2 * MINUTE) / DAY) + 2 ** ((3 * MINUTE) / DAY));
  assert.ok(Math.abs(s.cpu.totalWeight - expected) < 1e-15);
  assert.equal(s.totalSamplesCount, 2);
  assert.equal(s.firstSampleStart, t + 2 * MINUTE);
  assert.equal(s.lastSampleStart, t + 3 * MINUTE);
});

test('the CPU sample weight is configurable', () => {
  const s = new AggregateContainerState(createModelConfig({ cpuSampleWeight: 1 }));
  s.addCpuSample(0.5, t);
  assert.equal(s.cpu.totalWeight, 1);
});

test('CPU samples are de-duplicated per instance; invalid ones are refused', () => {
  const s = new AggregateContainerState(config);
  assert.equal(s.addCpuSample(0.5, t), true);
  assert.equal(s.addCpuSample(0.7, t), false); // same instance, same time
  assert.equal(s.addCpuSample(0.7, t - MINUTE), false); // older
  assert.equal(s.addCpuSample(0.7, t, 'pod-b'), true); // another pod at the same time
  assert.equal(s.addCpuSample(-1, t + MINUTE), false);
  assert.equal(s.addCpuSample(Number.NaN, t + MINUTE), false);
  assert.equal(s.addCpuSample(Infinity, t + MINUTE), false);
  assert.equal(s.totalSamplesCount, 2);
});

test('memory samples feed one peak per instance per interval and do not count as samples', () => {
  const s = new AggregateContainerState(config);
  s.addMemorySample(100 * MiB, t, 'pod-a');
  s.addMemorySample(120 * MiB, t + MINUTE, 'pod-a'); // replaces pod-a's peak
  s.addMemorySample(300 * MiB, t, 'pod-b'); // pod-b has its own peak
  assert.equal(s.memoryPeaks.totalWeight, 2);
  assert.equal(s.totalSamplesCount, 0);
  // p50 over two equal-weight peaks: the 120 MiB bucket end; p100: the 300 MiB bucket end
  const buckets = config.memoryBuckets;
  assert.equal(s.memoryPeaks.percentile(0.5), buckets.bucketStart(buckets.findBucket(120 * MiB) + 1));
  assert.equal(s.memoryPeaks.percentile(1), buckets.bucketStart(buckets.findBucket(300 * MiB) + 1));
  s.forgetInstance('pod-b');
  s.addMemorySample(50 * MiB, t + 2 * MINUTE, 'pod-b'); // a new pod-b opens a new interval
  assert.ok(Math.abs(s.memoryPeaks.totalWeight - 3) < 0.001); // a third peak (decay 2^(2min/24h) ~ 1.001)
});

test('OOM events go through the instance interval', () => {
  const s = new AggregateContainerState(config);
  s.addMemorySample(500 * MiB, t);
  assert.equal(s.recordOom(400 * MiB, t + MINUTE), true); // used = max(400, 500) -> 600 MiB replaces 500
  assert.equal(s.memoryPeaks.totalWeight, 1);
  const buckets = config.memoryBuckets;
  assert.equal(s.memoryPeaks.percentile(1), buckets.bucketStart(buckets.findBucket(600 * MiB) + 1));
  assert.equal(s.recordOom(400 * MiB, t - 2 * DAY), false); // too old
});

test('merge adds counts, widens the time span and merges both histograms', () => {
  const a = new AggregateContainerState(config);
  a.addCpuSample(1, t + DAY);
  a.addMemorySample(2e9, t + DAY);
  const b = new AggregateContainerState(config);
  b.addCpuSample(3, t);
  b.addCpuSample(3, t + 2 * DAY);
  b.addMemorySample(4e9, t);
  a.merge(b);
  assert.equal(a.totalSamplesCount, 3);
  assert.equal(a.firstSampleStart, t);
  assert.equal(a.lastSampleStart, t + 2 * DAY);
  assert.equal(a.memoryPeaks.totalWeight > 1, true);
  assert.equal(a.cpu.percentile(1), config.cpuBuckets.bucketStart(config.cpuBuckets.findBucket(3) + 1));
  const empty = new AggregateContainerState(config);
  empty.merge(new AggregateContainerState(config)); // merging empties keeps times undefined
  assert.equal(empty.firstSampleStart, undefined);
});

test('a state expires after the memory window (8 x 24h) without samples (upstream numbers)', () => {
  const s = new AggregateContainerState(config);
  s.addCpuSample(1, t);
  assert.equal(s.isExpired(t + 7 * DAY), false);
  assert.equal(s.isExpired(t + 8 * DAY), true);
  const empty = new AggregateContainerState(config, t);
  assert.equal(empty.isExpired(t + 7 * DAY), false);
  assert.equal(empty.isExpired(t + 8 * DAY), true);
  assert.equal(new AggregateContainerState(config).isExpired(t + 100 * DAY), false); // no creation time known
});

test("CPU samples enter as whole millicores, truncated as upstream's Prometheus feed does", () => {
  const s = new AggregateContainerState(config);
  const buckets = config.cpuBuckets;
  // 0.02059 cores is in bucket 2 ([0.0205, 0.0315) cores); truncated to 20m it is in bucket 1.
  assert.equal(buckets.findBucket(0.02059), 2);
  s.addCpuSample(0.02059, t);
  assert.equal(s.cpu.percentile(0.9), buckets.bucketStart(2));
  // 0.0009 cores is 0 millicores: still a sample (it counts for confidence), in bucket 0.
  const idle = new AggregateContainerState(config);
  assert.equal(idle.addCpuSample(0.0009, t), true);
  assert.equal(idle.totalSamplesCount, 1);
  assert.equal(idle.cpu.percentile(0.5), buckets.bucketStart(1));
});

test("an OOM kill with a VPA's own bump: max(used x ratio, used + minimum) instead of the config's", () => {
  const peakAfter = (bump?: { oomBumpUpRatio?: number; oomMinBumpUpBytes?: number }) => {
    const s = new AggregateContainerState(defaultModelConfig());
    assert.equal(s.recordOom(1000 * MiB, Date.UTC(2026, 0, 1), 'pod-1', bump), true);
    return s.memoryPeaks.percentile(1);
  };
  const bucketOf = (bytes: number) => {
    const s = new AggregateContainerState(defaultModelConfig());
    s.memoryPeaks.addSample(bytes, 1, Date.UTC(2026, 0, 1));
    return s.memoryPeaks.percentile(1);
  };
  assert.equal(peakAfter(), bucketOf(1200 * MiB), 'the defaults: x1.2');
  assert.equal(peakAfter({ oomBumpUpRatio: 3 }), bucketOf(3000 * MiB));
  assert.equal(peakAfter({ oomMinBumpUpBytes: 500 * MiB }), bucketOf(1500 * MiB), '+500 MiB beats x1.2');
});
