import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CheckpointError, buildCheckpoint, parseCheckpointStatus, type VerticalPodAutoscalerCheckpoint } from '../../src/api/vpa-checkpoint.ts';
import { AggregateContainerState } from '../../src/model/aggregate-container-state.ts';
import { loadAggregateCheckpoint, loadHistogramCheckpoint, saveAggregateCheckpoint, saveHistogramCheckpoint } from '../../src/model/aggregate-checkpoint.ts';
import { DecayingHistogram } from '../../src/model/decaying-histogram.ts';
import { estimateContainer } from '../../src/model/estimator.ts';
import { linearHistogramOptions } from '../../src/model/histogram-options.ts';
import { defaultModelConfig } from '../../src/model/model-config.ts';

const DAY = 86_400_000;
const MiB = 1024 * 1024;
const midnight = Date.UTC(2026, 0, 10);
const unit = linearHistogramOptions(10, 1, 1e-15); // 11 buckets of size 1
const config = defaultModelConfig();

/** A decaying histogram whose samples all sit at its reference time (decay factor 1). */
function plain(samples: [number, number][]): DecayingHistogram {
  const h = new DecayingHistogram(unit, DAY);
  for (const [value, weight] of samples) h.addSample(value, weight, midnight);
  return h;
}

test('save: an empty histogram has no buckets, weight 0 and no reference', () => {
  assert.deepEqual(saveHistogramCheckpoint(new DecayingHistogram(unit, DAY)), { referenceTimestamp: null, totalWeight: 0, bucketWeights: {} });
});

test('save: the largest bucket becomes 10000, others in proportion, rounded (upstream numbers)', () => {
  const saved = saveHistogramCheckpoint(
    plain([
      [1, 1],
      [2, 10000],
      [3, 50],
    ]),
  );
  assert.deepEqual(saved, { referenceTimestamp: '2026-01-10T00:00:00Z', totalWeight: 10051, bucketWeights: { 1: 1, 2: 10000, 3: 50 } });
});

test('save: buckets that round to 0 are dropped but the total keeps them (upstream numbers)', () => {
  const saved = saveHistogramCheckpoint(
    plain([
      [1, 1],
      [2, 100000],
    ]),
  );
  assert.deepEqual(saved.bucketWeights, { 2: 10000 }); // 1 x 10000/100000 = 0.1 rounds to 0
  assert.equal(saved.totalWeight, 100001);
});

test('load: the total weight is spread in proportion to the stored integers (upstream numbers)', () => {
  const h = new DecayingHistogram(unit, DAY);
  loadHistogramCheckpoint(
    h,
    {
      referenceTime: midnight,
      totalWeight: 6,
      bucketWeights: [
        [0, 1],
        [1, 2],
      ],
    },
    'cpu',
  );
  assert.equal(h.totalWeight, 6);
  assert.equal(h.histogram.bucketWeight(0), 2);
  assert.equal(h.histogram.bucketWeight(1), 4);
  assert.equal(h.referenceTime, midnight);
});

test('load: a bucket index beyond the scheme is rejected with the field', () => {
  const h = new DecayingHistogram(unit, DAY);
  assert.throws(
    () => loadHistogramCheckpoint(h, { referenceTime: midnight, totalWeight: 1, bucketWeights: [[99, 1]] }, 'status.cpuHistogram'),
    (err: unknown) => err instanceof CheckpointError && err.field === 'status.cpuHistogram.bucketWeights["99"]' && /out of range \[0, 10\]/.test(err.message),
  );
});

test('aggregate save: times, count, version and both histograms (upstream numbers)', () => {
  const state = new AggregateContainerState(config);
  const t1 = Date.UTC(2018, 0, 1, 2, 3, 4);
  const t2 = Date.UTC(2018, 1, 1, 2, 3, 4);
  state.firstSampleStart = t1;
  state.lastSampleStart = t2;
  state.totalSamplesCount = 10;
  state.cpu.addSample(1, 33, t2);
  state.memoryPeaks.addSample(1, 55, t1);
  state.memoryPeaks.addSample(1e7, 55, t1);
  const status = saveAggregateCheckpoint(state, Date.UTC(2018, 1, 1, 3, 0, 0, 500));
  assert.equal(status.version, 'v3');
  assert.equal(status.firstSampleStart, '2018-01-01T02:03:04Z');
  assert.equal(status.lastSampleStart, '2018-02-01T02:03:04Z');
  assert.equal(status.lastUpdateTime, '2018-02-01T03:00:00Z');
  assert.equal(status.totalSamplesCount, 10);
  assert.equal(Object.keys(status.cpuHistogram!.bucketWeights!).length, 1);
  assert.deepEqual(status.memoryHistogram!.bucketWeights, { 0: 10000, 1: 10000 }); // 1 byte -> bucket 0, 1e7 -> bucket 1
});

test('aggregate load: counts, times and non-empty histograms (upstream numbers)', () => {
  const state = loadAggregateCheckpoint(config, {
    version: 'v3',
    firstSampleStart: '2018-01-01T02:03:04Z',
    lastSampleStart: '2018-02-01T02:03:04Z',
    totalSamplesCount: 20,
    memoryHistogram: { bucketWeights: { 0: 10 }, totalWeight: 33, referenceTimestamp: '2018-02-01T00:00:00Z' },
    cpuHistogram: { bucketWeights: { 0: 10 }, totalWeight: 44, referenceTimestamp: '2018-02-01T00:00:00Z' },
  });
  assert.equal(state.firstSampleStart, Date.UTC(2018, 0, 1, 2, 3, 4));
  assert.equal(state.lastSampleStart, Date.UTC(2018, 1, 1, 2, 3, 4));
  assert.equal(state.totalSamplesCount, 20);
  assert.equal(state.cpu.totalWeight, 44);
  assert.equal(state.memoryPeaks.totalWeight, 33);
  assert.equal(state.cpu.isEmpty(), false);
  assert.equal(state.memoryPeaks.isEmpty(), false);
});

test('an upstream-written checkpoint loads and gives the hand-computed percentiles and estimate', () => {
  const object = JSON.parse(readFileSync(new URL('./fixtures/upstream-checkpoint.json', import.meta.url), 'utf8')) as VerticalPodAutoscalerCheckpoint;
  const state = loadAggregateCheckpoint(config, object.status);
  const cpu = config.cpuBuckets;
  const mem = config.memoryBuckets;
  // CPU shares: bucket 20 = 2/17, 25 = 10/17, 30 = 5/17 -> p10 ends bucket 20, p50 bucket 25, p90 bucket 30
  assert.equal(state.cpu.percentile(0.1), cpu.bucketStart(21)); // 0.3572 cores
  assert.equal(state.cpu.percentile(0.5), cpu.bucketStart(26)); // 0.5111 cores
  assert.equal(state.cpu.percentile(0.9), cpu.bucketStart(31)); // 0.7076 cores
  // memory shares: bucket 14 = 0.8, 16 = 0.2
  assert.equal(state.memoryPeaks.percentile(0.5), mem.bucketStart(15)); // 215.8 MB
  assert.equal(state.memoryPeaks.percentile(0.9), mem.bucketStart(17)); // 258.4 MB
  assert.equal(state.cpu.totalWeight, 1008.5);
  assert.equal(state.cpu.referenceTime, Date.UTC(2026, 0, 8));

  // 7 days at one sample a minute: confidence 7 -> upper x8/7, lower x(1 + 0.001/7)^-2
  const estimate = estimateContainer(state)!;
  assert.deepEqual(estimate.target, { cpu: 813, memory: 297164212 }); // 707 + 106; 258403663 + 38760549
  assert.deepEqual(estimate.lowerBound, { cpu: 586, memory: 250 * MiB }); // 587 x 0.99971; memory floor
  assert.deepEqual(estimate.upperBound, { cpu: 929, memory: 339616242 }); // 813 x 8/7; 297164212 x 8/7
});

test('Tailor round trip: percentiles and estimates come back within one bucket', () => {
  const MINUTE = 60_000;
  const state = new AggregateContainerState(config);
  // three days of a noisy daily cycle, one sample a minute, two pods
  let seed = 7;
  const noise = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let i = 0; i < 3 * 1440; i++) {
    const at = midnight + i * MINUTE;
    const daily = 1 + 0.6 * Math.sin((2 * Math.PI * i) / 1440);
    for (const pod of ['a', 'b']) {
      state.addCpuSample(0.3 * daily * (0.5 + noise()), at, pod);
      state.addMemorySample(300 * MiB * daily * (0.8 + 0.4 * noise()), at, pod);
    }
  }
  state.recordOom(400 * MiB, midnight + 2 * DAY + 5 * MINUTE, 'a');
  const now = midnight + 3 * DAY;
  const json = JSON.parse(JSON.stringify(buildCheckpoint('ns', 'vpa', 'app', saveAggregateCheckpoint(state, now)))) as VerticalPodAutoscalerCheckpoint;
  assert.equal(json.metadata.name, 'vpa-app');
  const restored = loadAggregateCheckpoint(config, json.status);

  assert.equal(restored.totalSamplesCount, state.totalSamplesCount);
  assert.equal(restored.firstSampleStart, state.firstSampleStart);
  assert.equal(restored.lastSampleStart, state.lastSampleStart);
  assert.ok(Math.abs(restored.cpu.totalWeight - state.cpu.totalWeight) <= 1e-9 * state.cpu.totalWeight);
  for (const [before, after, buckets] of [
    [state.cpu, restored.cpu, config.cpuBuckets],
    [state.memoryPeaks, restored.memoryPeaks, config.memoryBuckets],
  ] as const) {
    for (const p of [0.05, 0.1, 0.5, 0.9, 0.95, 0.99]) {
      const a = buckets.findBucket(before.percentile(p));
      const b = buckets.findBucket(after.percentile(p));
      assert.ok(Math.abs(a - b) <= 1, `p${p * 100}: bucket ${a} before, ${b} after`);
    }
  }
  const e1 = estimateContainer(state)!;
  const e2 = estimateContainer(restored)!;
  for (const key of ['target', 'lowerBound', 'upperBound'] as const) {
    // one bucket is a 5% step
    assert.ok(Math.abs(e1[key].cpu - e2[key].cpu) <= 0.051 * e1[key].cpu, `${key} cpu ${e1[key].cpu} vs ${e2[key].cpu}`);
    assert.ok(Math.abs(e1[key].memory - e2[key].memory) <= 0.051 * e1[key].memory, `${key} memory`);
  }
  // and a second round trip is stable: saving the restored state gives the same weights
  const again = saveAggregateCheckpoint(restored, now);
  assert.deepEqual(again.cpuHistogram, json.status!.cpuHistogram);
  assert.deepEqual(again.memoryHistogram, json.status!.memoryHistogram);
});

test('malformed checkpoints are rejected with the field named, never loaded as NaN', () => {
  const valid = {
    version: 'v3',
    totalSamplesCount: 1,
    firstSampleStart: '2026-01-01T00:00:00Z',
    lastSampleStart: '2026-01-01T00:00:00Z',
    cpuHistogram: { totalWeight: 1, bucketWeights: { 3: 10000 }, referenceTimestamp: '2026-01-01T00:00:00Z' },
  };
  assert.doesNotThrow(() => parseCheckpointStatus(valid));
  // One row per line, read as a table:
  // prettier-ignore
  const cases: [unknown, string][] = [
    [null, 'status'],
    [{ ...valid, version: 'v2' }, 'status.version'],
    [{ ...valid, version: undefined }, 'status.version'],
    [{ ...valid, totalSamplesCount: -1 }, 'status.totalSamplesCount'],
    [{ ...valid, totalSamplesCount: 1.5 }, 'status.totalSamplesCount'],
    [{ ...valid, totalSamplesCount: '10' }, 'status.totalSamplesCount'],
    [{ ...valid, firstSampleStart: 'yesterday' }, 'status.firstSampleStart'],
    [{ ...valid, firstSampleStart: '2026-01-02T00:00:00Z' }, 'status.firstSampleStart'],
    [{ ...valid, firstSampleStart: null }, 'status.firstSampleStart'],
    [{ ...valid, cpuHistogram: [] }, 'status.cpuHistogram'],
    [{ ...valid, cpuHistogram: { ...valid.cpuHistogram, totalWeight: -1 } }, 'status.cpuHistogram.totalWeight'],
    [{ ...valid, cpuHistogram: { ...valid.cpuHistogram, totalWeight: 'NaN' } }, 'status.cpuHistogram.totalWeight'],
    [{ ...valid, cpuHistogram: { ...valid.cpuHistogram, bucketWeights: { '-1': 1 } } }, 'status.cpuHistogram.bucketWeights["-1"]'],
    [{ ...valid, cpuHistogram: { ...valid.cpuHistogram, bucketWeights: { x: 1 } } }, 'status.cpuHistogram.bucketWeights["x"]'],
    [{ ...valid, cpuHistogram: { ...valid.cpuHistogram, bucketWeights: { 3: 1.5 } } }, 'status.cpuHistogram.bucketWeights["3"]'],
    [{ ...valid, cpuHistogram: { ...valid.cpuHistogram, bucketWeights: { 3: 2 ** 32 } } }, 'status.cpuHistogram.bucketWeights["3"]'],
    [{ ...valid, cpuHistogram: { ...valid.cpuHistogram, bucketWeights: 5 } }, 'status.cpuHistogram.bucketWeights'],
    [{ ...valid, cpuHistogram: { ...valid.cpuHistogram, referenceTimestamp: null } }, 'status.cpuHistogram.referenceTimestamp'],
    [{ ...valid, memoryHistogram: { totalWeight: 1, bucketWeights: { 176: 1 }, referenceTimestamp: '2026-01-01T00:00:00Z' } }, 'status.memoryHistogram.bucketWeights["176"]'],
  ];
  for (const [status, field] of cases) {
    assert.throws(
      () => loadAggregateCheckpoint(config, status),
      (err: unknown) => err instanceof CheckpointError && err.field === field && err.message.startsWith(`checkpoint ${field}:`),
      `expected an error on ${field} for ${JSON.stringify(status)}`,
    );
  }
});

test('an empty upstream checkpoint (omitted fields, null times) loads as an empty state', () => {
  const state = loadAggregateCheckpoint(config, {
    version: 'v3',
    lastUpdateTime: '2026-01-01T00:00:00Z',
    cpuHistogram: { referenceTimestamp: null },
    memoryHistogram: { referenceTimestamp: null },
    firstSampleStart: null,
    lastSampleStart: null,
  });
  assert.equal(state.totalSamplesCount, 0);
  assert.equal(state.cpu.isEmpty(), true);
  assert.equal(estimateContainer(state), undefined);
});
