import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PooledDecayingHistograms } from '../../../src/recommender/tailor/pooled-decaying-histograms.ts';
import { DecayingHistogram } from '../../../src/recommender/decaying-histogram.ts';
import { exponentialHistogramOptions } from '../../../src/recommender/histogram-options.ts';
import { Random } from '../../../src/replay/workload/random.ts';

const CPU_BUCKETS = exponentialHistogramOptions(1000, 0.001, 1.02, 1e-6);

test('each pooled histogram gives exactly the percentiles of its own DecayingHistogram, through window growth and reference shifts', () => {
  const halfLife = 60_000;
  // Half-lives 60 s .. 300 s: each histogram decays at its own pace.
  const pool = new PooledDecayingHistograms([1, 2, 3, 4, 5].map((n) => n * halfLife), CPU_BUCKETS);
  const own = Array.from({ length: 5 }, (_, k) => new DecayingHistogram(CPU_BUCKETS, (k + 1) * halfLife));
  const rng = new Random(3);
  let at = 1_700_000_000_000;
  for (let i = 0; i < 4000; i++) {
    // Jumps of 150 short half-lives now and then move the reference (and wipe old weight below epsilon).
    at += i % 900 === 899 ? 150 * halfLife : 1000;
    const k = i % 5;
    // Each histogram's range widens over time, in both directions.
    const v = i % 37 === 0 ? 0 : rng.logBetween(0.01 / (1 + i / 500), 2 * (1 + i / 500)) * (k + 1);
    pool.add(k, v, at);
    own[k]!.addSample(v, 1, at);
    for (const p of [0.5, 0.902, 1]) assert.equal(pool.percentile(k, p), own[k]!.percentile(p), `i=${i} k=${k} p=${p}`);
    assert.equal(pool.isEmpty(k), own[k]!.isEmpty());
  }
  // Storage holds only the windows in use: far less than 5 x 501 buckets x 8 bytes.
  assert.ok(pool.storageBytes < 5 * CPU_BUCKETS.numBuckets * 8, `${pool.storageBytes} bytes`);
});

test('worked number: samples of 0.1 and 0.3 cores one half-life apart weigh 1 and 2, so p50 ends the 0.3 bucket', () => {
  const pool = new PooledDecayingHistograms([3_600_000, 3_600_000], CPU_BUCKETS);
  assert.ok(pool.isEmpty(0) && pool.isEmpty(1));
  assert.equal(pool.percentile(0, 0.5), 0);
  pool.add(0, 0.1, 0);
  pool.add(0, 0.3, 3_600_000);
  // Cumulative weight 1 (of 3) in 0.1's bucket is below 1.5: the answer is the end of 0.3's bucket.
  assert.equal(pool.percentile(0, 0.5), CPU_BUCKETS.bucketStart(CPU_BUCKETS.findBucket(0.3) + 1));
  assert.equal(pool.percentile(0, 0.3), CPU_BUCKETS.bucketStart(CPU_BUCKETS.findBucket(0.1) + 1));
  assert.ok(pool.isEmpty(1), 'the other histogram saw nothing');
});
