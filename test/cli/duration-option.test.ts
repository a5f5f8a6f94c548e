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

test('a duration longer than ten years is refused, saying so (a hostile VPA had cooldown 99999999999999h: 3.6e20 ms, past a Date)', () => {
  assert.equal(parseDuration('3650d'), 3650 * 86_400_000);
  assert.throws(() => parseDuration('3651d'), /duration "3651d" is too long: at most 3650d \(ten years\)/);
  assert.throws(() => parseDuration('99999999999999h'), /too long/);
  assert.throws(() => parseDuration(`${'9'.repeat(400)}s`), /too long/);
});
