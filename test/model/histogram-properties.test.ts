import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Histogram } from '../../src/model/histogram.ts';
import { defaultModelConfig } from '../../src/model/model-config.ts';

const buckets = defaultModelConfig().cpuBuckets; // 176 exponential buckets, epsilon 1e-4

/** A plain dense model of the same semantics, to check the windowed storage against. */
class DenseModel {
  weights = new Array<number>(buckets.numBuckets).fill(0);
  total = 0;
  add(value: number, weight: number): void {
    this.weights[buckets.findBucket(value)]! += weight;
    this.total += weight;
  }
  subtract(value: number, weight: number): void {
    const b = buckets.findBucket(value);
    const removed = weight > this.weights[b]! - buckets.epsilon ? this.weights[b]! : weight;
    this.weights[b]! -= removed;
    this.total = Math.max(0, this.total - removed);
  }
  scale(factor: number): void {
    this.weights = this.weights.map((w) => w * factor);
    this.total *= factor;
  }
  percentile(p: number): number {
    const nonEmpty = this.weights.flatMap((w, i) => (w >= buckets.epsilon ? [i] : []));
    if (nonEmpty.length === 0) return 0;
    const [min, max] = [nonEmpty[0]!, nonEmpty[nonEmpty.length - 1]!];
    let sum = 0;
    let b = min;
    for (; b < max; b++) {
      sum += this.weights[b]!;
      if (sum >= p * this.total) break;
    }
    return buckets.bucketStart(b < buckets.numBuckets - 1 ? b + 1 : b);
  }
}

const value = fc.oneof(fc.double({ min: 0, max: 2000, noNaN: true }), fc.double({ min: 0, max: 0.05, noNaN: true }));
const operation = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), value, weight: fc.double({ min: 0, max: 10, noNaN: true }) }),
  fc.record({ kind: fc.constant('subtract' as const), value, weight: fc.double({ min: 0, max: 10, noNaN: true }) }),
  // scaling only ever shrinks weights in the model (reference shifts, merges)
  fc.record({ kind: fc.constant('scale' as const), value: fc.constant(0), weight: fc.double({ min: 0, max: 1, noNaN: true }) }),
);

test('property: the windowed histogram behaves like a dense array of all buckets', () => {
  fc.assert(
    fc.property(fc.array(operation, { maxLength: 80 }), (operations) => {
      const h = new Histogram(buckets);
      const model = new DenseModel();
      for (const op of operations) {
        if (op.kind === 'add') {
          h.addSample(op.value, op.weight);
          model.add(op.value, op.weight);
        } else if (op.kind === 'subtract') {
          h.subtractSample(op.value, op.weight);
          model.subtract(op.value, op.weight);
        } else {
          h.scale(op.weight);
          model.scale(op.weight);
        }
      }
      for (let b = 0; b < buckets.numBuckets; b++)
        assert.ok(Math.abs(h.bucketWeight(b) - model.weights[b]!) <= 1e-9 * Math.max(1, model.weights[b]!), `bucket ${b}`);
      assert.ok(Math.abs(h.totalWeight - model.total) <= 1e-9 * Math.max(1, model.total));
      for (const p of [0, 0.5, 0.9, 0.95, 1]) assert.equal(h.percentile(p), model.percentile(p), `p${p * 100}`);
    }),
    { numRuns: 300, seed: 7 },
  );
});

test('property: percentiles never decrease with p and are bucket edges', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(value, fc.double({ min: 0.001, max: 10, noNaN: true })), { minLength: 1, maxLength: 50 }), (samples) => {
      const h = new Histogram(buckets);
      for (const [v, w] of samples) h.addSample(v, w);
      let previous = -Infinity;
      for (let p = 0; p <= 1; p += 0.05) {
        const x = h.percentile(p);
        assert.ok(x >= previous, `p${p}`);
        assert.equal(buckets.bucketStart(buckets.findBucket(x)), x); // an edge
        previous = x;
      }
    }),
    { numRuns: 200, seed: 11 },
  );
});
