import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DecayingHistogram } from '../../src/model/decaying-histogram.ts';
import { linearHistogramOptions } from '../../src/model/histogram-options.ts';
import { ContainerInstanceState, addMemoryPeakSample, oomBumpedBytes, recordOomSample } from '../../src/model/memory-peaks.ts';
import { MODEL_DEFAULTS } from '../../src/model/model-options.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MiB = 1024 * 1024;
const t = Date.UTC(2026, 0, 10); // a UTC midnight, so interval ends fall on whole half-lives

/** Memory in MiB-wide buckets up to 4000 MiB; half-life one day. */
function peaks(): DecayingHistogram {
  return new DecayingHistogram(linearHistogramOptions(4000 * MiB, MiB, 1e-4), DAY);
}
const bucket = (h: DecayingHistogram, mib: number): number => h.histogram.bucketWeight(mib);

test('one peak per interval: a higher sample replaces the peak, a later one opens a new interval (upstream numbers)', () => {
  const h = peaks();
  const c = new ContainerInstanceState();
  assert.equal(addMemoryPeakSample(c, h, 5 * MiB, t, false, DAY), true);
  assert.equal(c.windowEnd, t + DAY); // the first interval ends 24h after the first sample
  assert.equal(bucket(h, 5), 1);
  assert.equal(addMemoryPeakSample(c, h, 10 * MiB, t + 12 * HOUR, false, DAY), true);
  assert.equal(bucket(h, 5), 0); // replaced
  assert.equal(bucket(h, 10), 1);
  assert.equal(addMemoryPeakSample(c, h, 7 * MiB, t + 13 * HOUR, false, DAY), true);
  assert.equal(bucket(h, 7), 0); // lower than the interval's peak: no change
  assert.equal(addMemoryPeakSample(c, h, 2 * MiB, t + 24 * HOUR, false, DAY), true);
  assert.equal(c.windowEnd, t + 2 * DAY);
  assert.equal(bucket(h, 2), 2); // stamped at the new interval end, one half-life later: weight 2^1
  assert.equal(h.totalWeight, 3);
});

test('a gap of several intervals moves the interval end by whole intervals past the sample', () => {
  const h = peaks();
  const c = new ContainerInstanceState();
  addMemoryPeakSample(c, h, 5 * MiB, t, false, DAY);
  addMemoryPeakSample(c, h, 6 * MiB, t + 3 * DAY + 5 * HOUR, false, DAY);
  assert.equal(c.windowEnd, t + 4 * DAY); // [t+3d, t+4d) holds the sample
  assert.equal(c.memoryPeak, 6 * MiB);
});

test('invalid and out-of-order memory samples are discarded', () => {
  const h = peaks();
  const c = new ContainerInstanceState();
  addMemoryPeakSample(c, h, 5 * MiB, t, false, DAY);
  assert.equal(addMemoryPeakSample(c, h, 50 * MiB, t - HOUR, false, DAY), false); // older than the last one
  assert.equal(addMemoryPeakSample(c, h, -1, t + 2 * HOUR, false, DAY), false);
  assert.equal(addMemoryPeakSample(c, h, Number.NaN, t + 2 * HOUR, false, DAY), false);
  assert.equal(addMemoryPeakSample(c, h, 5 * MiB, Number.NaN, false, DAY), false);
  assert.equal(h.totalWeight, 1);
});

test('OOM bump: max(used + 100 MiB, used x 1.2)', () => {
  assert.equal(oomBumpedBytes(1000 * MiB, MODEL_DEFAULTS), 1200 * MiB); // x1.2 wins
  assert.equal(oomBumpedBytes(1 * MiB, MODEL_DEFAULTS), 101 * MiB); // +100 MiB wins
  assert.equal(oomBumpedBytes(500 * MiB, MODEL_DEFAULTS), 600 * MiB); // the crossover: both give 600 MiB
  assert.equal(oomBumpedBytes(0, MODEL_DEFAULTS), 100 * MiB);
});

test('an OOM is recorded as the bumped interval peak (upstream numbers)', () => {
  const h = peaks();
  const c = new ContainerInstanceState();
  assert.equal(recordOomSample(c, h, 1000 * MiB, t, MODEL_DEFAULTS), true);
  assert.equal(c.windowEnd, t + DAY);
  assert.equal(bucket(h, 1200), 1);
});

test('repeated smaller OOMs do not run away; a larger one replaces the peak (upstream numbers)', () => {
  const h = peaks();
  const c = new ContainerInstanceState();
  recordOomSample(c, h, 1000 * MiB, t, MODEL_DEFAULTS); // 1200 MiB
  recordOomSample(c, h, 999 * MiB, t, MODEL_DEFAULTS); // 1198.8 MiB < 1200: no change
  recordOomSample(c, h, 999 * MiB, t, MODEL_DEFAULTS);
  assert.equal(bucket(h, 1200), 1);
  assert.equal(h.totalWeight, 1);
  recordOomSample(c, h, 2000 * MiB, t, MODEL_DEFAULTS); // 2400 MiB replaces 1200
  assert.equal(bucket(h, 1200), 0);
  assert.equal(bucket(h, 2400), 1);
});

test('an OOM is bumped from the interval usage peak when it exceeds the request (upstream numbers)', () => {
  const h = peaks();
  const c = new ContainerInstanceState();
  addMemoryPeakSample(c, h, 3000 * MiB, t, false, DAY);
  recordOomSample(c, h, 1000 * MiB, t, MODEL_DEFAULTS); // used = max(1000, 3000) -> 3600 MiB
  assert.equal(bucket(h, 3000), 0);
  assert.equal(bucket(h, 3600), 1);
});

test('an OOM older than the current interval is discarded (upstream numbers)', () => {
  const h = peaks();
  const c = new ContainerInstanceState();
  addMemoryPeakSample(c, h, 1000 * MiB, t, false, DAY);
  assert.equal(recordOomSample(c, h, 1000 * MiB, t - 30 * HOUR, MODEL_DEFAULTS), false);
  assert.equal(bucket(h, 1000), 1);
  assert.equal(h.totalWeight, 1);
});

test('an OOM in a later interval opens it, bumped from the last known usage peak (upstream numbers)', () => {
  const h = peaks();
  const c = new ContainerInstanceState();
  addMemoryPeakSample(c, h, 2000 * MiB, t, false, DAY);
  assert.equal(recordOomSample(c, h, 1000 * MiB, t + 2 * DAY, MODEL_DEFAULTS), true);
  assert.equal(c.windowEnd, t + 3 * DAY);
  assert.equal(bucket(h, 2400), 2 ** 2); // stamped two half-lives after the first peak
  assert.equal(c.oomPeak, 2400 * MiB);
  assert.equal(c.memoryPeak, 0);
});
