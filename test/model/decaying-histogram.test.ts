import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DecayingHistogram } from '../../src/model/decaying-histogram.ts';
import { linearHistogramOptions } from '../../src/model/histogram-options.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const unit = linearHistogramOptions(10, 1, 1e-15); // bucket i holds [i, i+1)
const start = 1_234_567_890_000; // an arbitrary instant (ms)
const midnight = Date.UTC(2026, 0, 10); // a UTC midnight: a whole number of days since the epoch

test('an empty decaying histogram has percentile 0', () => {
  const h = new DecayingHistogram(unit, HOUR);
  for (const p of [-0.5, 0, 0.5, 1, 1.5]) assert.equal(h.percentile(p), 0);
  assert.equal(h.referenceTime, undefined);
});

test('a sample weighs 2^(age difference in half-lives) relative to another', () => {
  const h = new DecayingHistogram(unit, DAY);
  h.addSample(1, 0.1, midnight); // reference = midnight: stored 0.1 x 2^0
  h.addSample(2, 0.1, midnight + 3 * DAY); // three half-lives later: 0.1 x 2^3 = 0.8
  h.addSample(3, 0.1, midnight + 12 * HOUR); // half a half-life: 0.1 x 2^0.5
  assert.equal(h.referenceTime, midnight);
  assert.equal(h.histogram.bucketWeight(1), 0.1);
  assert.ok(Math.abs(h.histogram.bucketWeight(2) - 0.8) < 1e-15);
  assert.ok(Math.abs(h.histogram.bucketWeight(3) - 0.1 * Math.SQRT2) < 1e-15);
});

test('decay over several half-lives: an old heavy sample stops mattering (upstream numbers)', () => {
  const h = new DecayingHistogram(unit, HOUR);
  h.addSample(2, 1000, start);
  // 20 half-lives later a weight-1 sample counts 2^20 x 0.001 > 1000 times more
  h.addSample(1, 1, start + 20 * HOUR);
  assert.equal(h.percentile(0.999), 2);
  assert.equal(h.percentile(1), 3);
});

test('samples one half-life apart: the expected distribution (upstream numbers)', () => {
  const h = new DecayingHistogram(unit, HOUR);
  for (let i = 1; i <= 4; i++) h.addSample(i, i, start + (i - 1) * HOUR);
  // weights relative to the newest: 1/8, 2/4, 3/2, 4 -> shares 2%, 8%, 24%, 65%
  const expected: [number, number][] = [
    [0, 2],
    [0.02, 2],
    [0.03, 3],
    [0.1, 3],
    [0.11, 4],
    [0.34, 4],
    [0.35, 5],
    [1, 5],
  ];
  for (const [p, value] of expected) assert.equal(h.percentile(p), value, `p${p * 100}`);
});

test('without time passing it is a plain histogram', () => {
  const h = new DecayingHistogram(unit, HOUR);
  for (let i = 1; i <= 4; i++) h.addSample(i, i, start);
  const expected: [number, number][] = [
    [0, 2],
    [0.1, 2],
    [0.2, 3],
    [0.3, 3],
    [0.4, 4],
    [0.6, 4],
    [0.7, 5],
    [1, 5],
  ];
  for (const [p, value] of expected) assert.equal(h.percentile(p), value, `p${p * 100}`);
});

test('the reference time moves forward past 2^100 and old weight is dropped (upstream numbers)', () => {
  const h = new DecayingHistogram(unit, HOUR);
  h.addSample(2, 1, start);
  h.addSample(1, 1, start + 101 * HOUR);
  assert.equal(h.percentile(1), 2); // the sample at 2 weighs 2^-101: below epsilon
  assert.equal(h.referenceTime, Math.round((start + 101 * HOUR) / HOUR) * HOUR);
});

test('reference-time rescaling keeps weights finite and percentiles unchanged over a year', () => {
  const h = new DecayingHistogram(unit, DAY);
  const plain = new DecayingHistogram(unit, DAY, 500); // rescales later (2^500 still fits a double)
  let shifts = 0;
  let reference = h.referenceTime;
  for (let t = 0; t < 365 * DAY; t += HOUR) {
    const value = (t / HOUR) % 10; // 0..9 cycling through the buckets
    h.addSample(value, 0.1, midnight + t);
    plain.addSample(value, 0.1, midnight + t);
    if (h.referenceTime !== reference) {
      shifts++;
      reference = h.referenceTime;
    }
    assert.ok(Number.isFinite(h.totalWeight));
  }
  // the first sample sets the reference, then it moves just after days 100, 200 and 300
  assert.equal(shifts, 4);
  assert.ok(h.totalWeight < 2 ** 101, `total ${h.totalWeight}`);
  assert.equal((h.referenceTime! - midnight) % DAY, 0); // always a whole number of half-lives
  for (const p of [0.1, 0.5, 0.9, 0.95]) assert.equal(h.percentile(p), plain.percentile(p), `p${p * 100}`);
});

test('merge aligns the older reference to the newer one without touching the other histogram', () => {
  const a = new DecayingHistogram(unit, HOUR);
  a.addSample(1, 1, start);
  a.addSample(2, 1, start + HOUR);
  const b = new DecayingHistogram(unit, HOUR);
  b.addSample(2, 1, start + 200 * HOUR); // b's reference is 200 hours later
  b.addSample(3, 1, start + 199 * HOUR);
  const bWeights = [2, 3].map((i) => b.histogram.bucketWeight(i));

  const expected = new DecayingHistogram(unit, HOUR);
  expected.addSample(1, 1, start);
  expected.addSample(2, 1, start + HOUR);
  expected.addSample(2, 1, start + 200 * HOUR);
  expected.addSample(3, 1, start + 199 * HOUR);

  a.merge(b);
  assert.equal(a.referenceTime, b.referenceTime);
  for (const i of [1, 2, 3]) assert.ok(Math.abs(a.histogram.bucketWeight(i) - expected.histogram.bucketWeight(i)) < 1e-12, `bucket ${i}`);
  assert.deepEqual(
    [2, 3].map((i) => b.histogram.bucketWeight(i)),
    bWeights,
  );
  assert.throws(() => a.merge(new DecayingHistogram(unit, DAY)), /half-lives/);
});

test('subtractSample removes exactly what addSample added at the same time', () => {
  const h = new DecayingHistogram(unit, DAY);
  h.addSample(5, 1, midnight + 2 * DAY);
  h.addSample(7, 1, midnight + 5 * DAY);
  h.subtractSample(7, 1, midnight + 5 * DAY);
  assert.equal(h.histogram.bucketWeight(7), 0);
  assert.equal(h.percentile(1), 6);
});

test('rejects a non-finite sample time', () => {
  const h = new DecayingHistogram(unit, DAY);
  assert.throws(() => h.addSample(1, 1, Number.NaN), RangeError);
  assert.throws(() => new DecayingHistogram(unit, 0), RangeError);
});
