import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../../src/config/duration-option.ts';

test('durations: 8d, 90s, 1d12h, 1w', () => {
  assert.equal(parseDuration('8d'), 8 * 86_400_000);
  assert.equal(parseDuration('90s'), 90_000);
  assert.equal(parseDuration('1d12h'), 36 * 3600_000);
  assert.equal(parseDuration('1w'), 7 * 86_400_000);
  assert.throws(() => parseDuration('8 days'), /invalid duration/);
  assert.throws(() => parseDuration('5'), /invalid duration/);
});
