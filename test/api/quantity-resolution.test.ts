import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWholeAmount } from '../../src/api/quantity-resolution.ts';

test('cpu: whole millicores', () => {
  for (const q of ['250m', '0.25', '1', '2.5', '1e3', '100000m', '1000000']) assert.equal(isWholeAmount('cpu', q), true, q);
  for (const q of ['0.5m', '100u', '1.9999m', '0.0001', '1500n']) assert.equal(isWholeAmount('cpu', q), false, q);
});

test('memory: whole bytes, also for large values', () => {
  for (const q of ['1Gi', '1.5Ki', '129M', '1e9', '128974848000m', '16Ti', '1.5Ti']) assert.equal(isWholeAmount('memory', q), true, q);
  for (const q of ['1.5', '100m', '1.9999', '0.0001Ki']) assert.equal(isWholeAmount('memory', q), false, q);
});
