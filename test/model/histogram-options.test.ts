import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exponentialHistogramOptions, HistogramOptionsError, linearHistogramOptions } from '../../src/model/histogram-options.ts';
import { defaultModelConfig } from '../../src/model/model-config.ts';

test('linear buckets: count, starts and lookup (upstream example 5.0 / 0.3)', () => {
  const o = linearHistogramOptions(5, 0.3, 0.001);
  assert.equal(o.numBuckets, 18); // ceil(5/0.3) + 1
  assert.equal(o.epsilon, 0.001);
  assert.equal(o.bucketStart(0), 0);
  assert.equal(o.bucketStart(17), 5.1);
  assert.equal(o.findBucket(-1), 0);
  assert.equal(o.findBucket(0), 0);
  assert.equal(o.findBucket(1.3), 4);
  assert.equal(o.findBucket(100), 17); // beyond the range: the last bucket
});

test('exponential buckets: count, starts and lookup (upstream example 500 / 40 / 1.5)', () => {
  const o = exponentialHistogramOptions(500, 40, 1.5, 0.001);
  assert.equal(o.numBuckets, 6);
  // start(n) = 40 x (1.5^n - 1)/0.5
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((i) => o.bucketStart(i)),
    [0, 40, 100, 190, 325, 527.5],
  );
  assert.equal(o.findBucket(-1), 0);
  assert.equal(o.findBucket(39.99), 0);
  assert.equal(o.findBucket(40), 1);
  assert.equal(o.findBucket(100), 2);
  assert.equal(o.findBucket(900), 5);
  assert.equal(o.findBucket(Number.NaN), 0);
});

test('the upstream CPU and memory schemes have 176 buckets and 5% growth', () => {
  const { cpuBuckets, memoryBuckets } = defaultModelConfig();
  assert.equal(cpuBuckets.numBuckets, 176);
  assert.equal(memoryBuckets.numBuckets, 176);
  assert.equal(cpuBuckets.bucketStart(1), 0.01); // first bucket: 0.01 core wide
  assert.equal(memoryBuckets.bucketStart(1), 1e7); // first bucket: 10 MB wide
  // bucket 2 is 1.05 x as wide as bucket 1: starts at 0.01 + 0.0105
  assert.ok(Math.abs(cpuBuckets.bucketStart(2) - 0.0205) < 1e-12);
  // the last bucket starts just above the max: 1000 cores, 1e12 bytes
  assert.ok(cpuBuckets.bucketStart(175) >= 1000 && cpuBuckets.bucketStart(174) < 1000);
  assert.ok(memoryBuckets.bucketStart(175) >= 1e12 && memoryBuckets.bucketStart(174) < 1e12);
});

test('findBucket is the exact inverse of bucketStart at every edge', () => {
  for (const o of [defaultModelConfig().cpuBuckets, defaultModelConfig().memoryBuckets, linearHistogramOptions(1, 0.1, 1e-9)]) {
    for (let i = 0; i < o.numBuckets; i++) {
      assert.equal(o.findBucket(o.bucketStart(i)), i, `start of bucket ${i}`);
      if (i > 0) assert.equal(o.findBucket(o.bucketStart(i) * (1 - 1e-12)), i - 1, `just below bucket ${i}`);
    }
  }
});

test('rejects invalid schemes and out-of-range indices', () => {
  assert.throws(() => exponentialHistogramOptions(100, 1, 1, 0.1), HistogramOptionsError);
  assert.throws(() => exponentialHistogramOptions(-1, 1, 1.05, 0.1), /maxValue/);
  assert.throws(() => linearHistogramOptions(10, 0, 0.1), /bucketSize/);
  assert.throws(() => linearHistogramOptions(10, 1, Number.NaN), /epsilon/);
  assert.throws(() => linearHistogramOptions(10, 1, 0.1).bucketStart(11), RangeError);
});
