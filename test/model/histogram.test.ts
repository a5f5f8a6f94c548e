import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Histogram } from '../../src/model/histogram.ts';
import { linearHistogramOptions } from '../../src/model/histogram-options.ts';
import { defaultModelConfig } from '../../src/model/model-config.ts';

const EPS = 1e-15;
/** Buckets of size 1 from 0 to 10: bucket i holds [i, i+1). */
const unit = linearHistogramOptions(10, 1, EPS);

function close(actual: number, expected: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected)), `${what}: ${actual} != ${expected}`);
}

test('an empty histogram has percentile 0 everywhere', () => {
  const h = new Histogram(unit);
  for (const p of [-0.5, 0, 0.5, 1, 1.5]) assert.equal(h.percentile(p), 0);
  assert.equal(h.isEmpty(), true);
  assert.equal(h.minBucket, -1);
  assert.equal(h.storageBytes, 0); // nothing allocated before the first sample
});

test('percentile is the end of the bucket where the cumulative weight reaches p x total', () => {
  const h = new Histogram(unit);
  for (let i = 1; i <= 4; i++) h.addSample(i, i); // weights {1: 1, 2: 2, 3: 3, 4: 4}, total 10
  // cumulative: bucket 1 -> 1, bucket 2 -> 3, bucket 3 -> 6, bucket 4 -> 10
  const expected: [number, number][] = [
    [0, 2],
    [0.1, 2],
    [0.2, 3],
    [0.3, 3],
    [0.4, 4],
    [0.5, 4],
    [0.6, 4],
    [0.7, 5],
    [0.8, 5],
    [0.9, 5],
    [1, 5],
  ];
  for (const [p, value] of expected) assert.equal(h.percentile(p), value, `p${p * 100}`);
  assert.equal(h.totalWeight, 10);
  assert.equal(h.minBucket, 1);
  assert.equal(h.maxBucket, 4);
});

test('percentiles outside [0, 1] give the first and last non-empty bucket; the last bucket returns its start', () => {
  const h = new Histogram(linearHistogramOptions(1, 0.1, EPS)); // 11 buckets of 0.1
  h.addSample(0.1, 0.1);
  h.addSample(0.2, 0.2);
  close(h.percentile(-0.1), 0.2, 'below 0');
  close(h.percentile(1.1), 0.3, 'above 1');
  h.addSample(0, 0.1);
  h.addSample(1, 0.2); // the open-ended last bucket
  close(h.percentile(-0.1), 0.1, 'below 0 with bucket 0 filled');
  close(h.percentile(1.1), 1.0, 'the last bucket has no end: its start');
});

test('isEmpty ignores buckets lighter than epsilon', () => {
  const h = new Histogram(linearHistogramOptions(1, 0.1, EPS));
  h.addSample(0.1, EPS * 2.5);
  assert.equal(h.isEmpty(), false);
  h.subtractSample(0.1, EPS); // 1.5 x epsilon left
  assert.equal(h.isEmpty(), false);
  h.subtractSample(0.1, EPS); // 0.5 x epsilon left
  assert.equal(h.isEmpty(), true);
});

test('a sub-epsilon sample neither empties nor extends the range', () => {
  const h = new Histogram(linearHistogramOptions(1, 0.1, EPS));
  h.addSample(9.9, EPS * 3);
  h.addSample(0.1, EPS * 0.3);
  h.addSample(999.9, EPS * 0.3);
  assert.equal(h.isEmpty(), false);
  assert.equal(h.minBucket, 10);
  assert.equal(h.maxBucket, 10);
});

test('subtractSample never drives a bucket or the total below zero', () => {
  const h = new Histogram(unit);
  h.addSample(3, 2);
  h.subtractSample(3, 5);
  assert.equal(h.bucketWeight(3), 0);
  assert.equal(h.totalWeight, 0);
  assert.equal(h.isEmpty(), true);
  h.subtractSample(7, 1); // a bucket that never had weight
  assert.equal(h.totalWeight, 0);
});

test('merge adds the other histogram bucket by bucket', () => {
  const a = new Histogram(unit);
  a.addSample(1, 1);
  a.addSample(2, 1);
  const b = new Histogram(unit);
  b.addSample(2, 1);
  b.addSample(3, 1);
  a.merge(b);
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((i) => a.bucketWeight(i)),
    [0, 1, 2, 1, 0],
  );
  assert.equal(a.totalWeight, 4);
  assert.equal(a.percentile(0.5), 3);
  assert.throws(() => a.merge(new Histogram(linearHistogramOptions(10, 1, EPS))), /different bucketing/);
});

test('scale multiplies every weight and keeps percentiles', () => {
  const h = new Histogram(unit);
  for (let i = 1; i <= 4; i++) h.addSample(i, i);
  h.scale(0.5);
  assert.equal(h.totalWeight, 5);
  assert.equal(h.bucketWeight(4), 2);
  assert.equal(h.percentile(0.3), 3);
  h.scale(0);
  assert.equal(h.isEmpty(), true);
  assert.throws(() => h.scale(-1), RangeError);
});

test('rejects negative and non-finite weights', () => {
  const h = new Histogram(unit);
  assert.throws(() => h.addSample(1, -1), RangeError);
  assert.throws(() => h.addSample(1, Number.NaN), RangeError);
  assert.throws(() => h.addSample(1, Infinity), RangeError);
  assert.throws(() => h.addToBucket(11, 1), RangeError);
  assert.equal(h.totalWeight, 0);
});

test('storage covers only the buckets in use, growing when needed', () => {
  const { cpuBuckets } = defaultModelConfig();
  const h = new Histogram(cpuBuckets);
  h.addSample(0.25, 1); // bucket 16
  assert.ok(h.storageBytes <= 9 * 8, `${h.storageBytes} bytes after one sample`);
  h.addSample(1, 1); // bucket 36
  h.addSample(0.05, 1); // bucket 4
  assert.ok(h.storageBytes <= 41 * 8, `${h.storageBytes} bytes for buckets 4..36`);
  assert.equal(h.bucketWeight(16), 1);
  assert.equal(h.bucketWeight(36), 1);
  assert.equal(h.bucketWeight(4), 1);
  assert.equal(h.totalWeight, 3);
  // p50: cumulative 1 at bucket 4, 2 at bucket 16 -> end of bucket 16 = start of bucket 17
  assert.equal(h.percentile(0.5), cpuBuckets.bucketStart(17));
});
