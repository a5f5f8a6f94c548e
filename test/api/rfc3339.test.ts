import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRfc3339, parseRfc3339, TimestampError } from '../../src/api/rfc3339.ts';

test('parses RFC 3339 timestamps with Z, offsets and fractions', () => {
  assert.equal(parseRfc3339('2018-01-02T03:04:05Z'), Date.UTC(2018, 0, 2, 3, 4, 5));
  assert.equal(parseRfc3339('2018-01-02T05:04:05+02:00'), Date.UTC(2018, 0, 2, 3, 4, 5));
  assert.equal(parseRfc3339('2018-01-01T22:04:05-05:00'), Date.UTC(2018, 0, 2, 3, 4, 5));
  assert.equal(parseRfc3339('2018-01-02T03:04:05.678901Z'), Date.UTC(2018, 0, 2, 3, 4, 5, 678));
  assert.equal(parseRfc3339('1970-01-01T00:00:00Z'), 0);
});

test('rejects malformed timestamps and impossible dates, quoting the input', () => {
  for (const bad of [
    '',
    '2018-01-02',
    '2018-01-02 03:04:05Z',
    '2018-01-02T03:04:05',
    '2018-02-30T00:00:00Z',
    '2018-13-01T00:00:00Z',
    '2018-01-01T24:00:00Z',
    '2018-01-01T00:00:00+25:00',
    'yesterday',
  ]) {
    assert.throws(
      () => parseRfc3339(bad),
      (err: unknown) => err instanceof TimestampError && err.message.includes(JSON.stringify(bad)),
      bad,
    );
  }
});

test('formats whole seconds in UTC and round-trips', () => {
  assert.equal(formatRfc3339(Date.UTC(2026, 0, 10, 12, 30, 15, 999)), '2026-01-10T12:30:15Z');
  assert.equal(formatRfc3339(0), '1970-01-01T00:00:00Z');
  const t = Date.UTC(2026, 5, 30, 23, 59, 59);
  assert.equal(parseRfc3339(formatRfc3339(t)), t);
  assert.throws(() => formatRfc3339(Number.NaN), TimestampError);
});
