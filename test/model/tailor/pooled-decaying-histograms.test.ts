import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PooledDecayingHistograms } from '../../../src/model/tailor/pooled-decaying-histograms.ts';
import { DecayingHistogram } from '../../../src/model/decaying-histogram.ts';
import { exponentialHistogramOptions } from '../../../src/model/histogram-options.ts';
import { Random } from '../../../src/replay/workload/random.ts';

const CPU_BUCKETS = exponentialHistogramOptions(1000, 0.001, 1.02, 1e-6);

/**
 * True when `answer` (a bucket end, as percentile() answers) is the p'-percentile of `h` for some p'
 * within `tolerance` of p: the weight below its bucket is under (p + tolerance) x total and the
 * weight up to its end at least (p - tolerance) x total.
 */
function validPercentile(h: DecayingHistogram, answer: number, p: number, tolerance: number): boolean {
  const histogram = h.histogram;
  const last = CPU_BUCKETS.numBuckets - 1;
  const end = CPU_BUCKETS.findBucket(answer);
  const bucket = end === last && answer === CPU_BUCKETS.bucketStart(last) ? last : end - 1;
  let below = 0;
  for (let b = histogram.minBucket; b < bucket; b++) below += histogram.bucketWeight(b);
  const upTo = below + histogram.bucketWeight(bucket);
  return below < (p + tolerance) * histogram.totalWeight && upTo >= (p - tolerance) * histogram.totalWeight;
}

test('each pooled histogram gives the percentiles of its own DecayingHistogram as a percentile within 0.001 of the asked one (nearly always the same bucket), through window growth and long gaps', () => {
  const halfLife = 60_000;
  // Half-lives 60 s .. 300 s: each histogram decays at its own pace.
  const pool = new PooledDecayingHistograms(
    [1, 2, 3, 4, 5].map((n) => n * halfLife),
    CPU_BUCKETS,
  );
  const own = Array.from({ length: 5 }, (_, k) => new DecayingHistogram(CPU_BUCKETS, (k + 1) * halfLife));
  const rng = new Random(3);
  let at = 1_700_000_000_000;
  let same = 0;
  let checks = 0;
  for (let i = 0; i < 4000; i++) {
    // Jumps of 150 short half-lives now and then wipe old weight (upstream: below epsilon; here: codes that reach 0).
    at += i % 900 === 899 ? 150 * halfLife : 1000;
    const k = i % 5;
    // Each histogram's range widens over time, in both directions.
    const v = i % 37 === 0 ? 0 : rng.logBetween(0.01 / (1 + i / 500), 2 * (1 + i / 500)) * (k + 1);
    pool.add(k, v, at);
    own[k]!.addSample(v, 1, at);
    for (const p of [0.5, 0.902, 1]) {
      const got = pool.percentile(k, p);
      if (got === own[k]!.percentile(p)) same++;
      else assert.ok(validPercentile(own[k]!, got, p, 1e-3), `i=${i} k=${k} p=${p}: ${got} is not a percentile within 0.001 of ${p}`);
      checks++;
    }
    assert.equal(pool.isEmpty(k), own[k]!.isEmpty());
  }
  // Spread samples (a few per bucket) make near-ties common; the rest differ only within the tolerance above.
  assert.ok(same / checks > 0.95, `${same} of ${checks} the same`);
  // Storage holds only the windows in use, 2 bytes a bucket: far less than 5 x 501 buckets x 8 bytes.
  assert.ok(pool.storageBytes < 5 * CPU_BUCKETS.numBuckets * 2, `${pool.storageBytes} bytes`);
});

test("a histogram fed many samples at once (a workload of 300 pods) keeps each sample's weight: a level that later takes over is seen", () => {
  const pool = new PooledDecayingHistograms([12 * 3_600_000], CPU_BUCKETS);
  const own = new DecayingHistogram(CPU_BUCKETS, 12 * 3_600_000);
  let at = 1_700_000_000_000;
  // 2 days at 0.1 core, 300 samples a minute: each new sample weighs far less than a code of the busy bucket.
  for (let minute = 0; minute < 2 * 1440; minute++, at += 60_000) {
    for (let pod = 0; pod < 300; pod++) {
      const v = minute < 1440 + 720 ? 0.1 : 0.5;
      pool.add(0, v, at);
      own.addSample(v, 1, at);
    }
  }
  for (const p of [0.1, 0.3, 0.5, 0.9]) assert.equal(pool.percentile(0, p), own.percentile(p), `p=${p}`);
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
