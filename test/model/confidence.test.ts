import { test } from 'node:test';
import assert from 'node:assert/strict';
import { confidenceFactor, goPow } from '../../src/model/confidence.ts';

test('the lower-bound factor is computed as Go math.Pow does: 1/(x*x), not x ** -2', () => {
  // 8 one-minute samples: c = 8/1440, x = 1 + 0.001/c. Go's Pow squares then divides once;
  // JavaScript's ** rounds differently here (0.7181844297615629), so upstream's bound would differ.
  const c = 8 / 1440;
  const x = 1 + 0.001 / c;
  assert.equal(confidenceFactor(0.001, -2, c), 0.7181844297615628);
  assert.equal(confidenceFactor(0.001, -2, c), 1 / (x * x));
  assert.equal(confidenceFactor(1, 1, 0.5), 3);
  assert.equal(confidenceFactor(1, 1, 0), Infinity);
  assert.equal(confidenceFactor(0.001, -2, 0), 0);
  assert.equal(confidenceFactor(0, -2, 0), 1);
});

test('goPow: repeated squaring for whole exponents, ** otherwise', () => {
  assert.equal(goPow(1.1, 3), 1.1 * 1.1 * 1.1);
  assert.equal(goPow(1.1, -3), 1 / (1.1 * (1.1 * 1.1)));
  assert.equal(goPow(2, 10), 1024);
  assert.equal(goPow(1.3, 0), 1);
  assert.equal(goPow(4, 0.5), 2);
});
