import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDecimal } from '../../src/replay/decimal-bytes.ts';

function parse(text: string): number {
  const bytes = Buffer.from(`x${text}y`, 'latin1');
  return parseDecimal(bytes, 1, bytes.length - 1);
}

test('plain decimals parse exactly as Number does', () => {
  fc.assert(
    fc.property(fc.double({ min: 0, max: 1e12, noNaN: true }), fc.integer({ min: 0, max: 6 }), (value, decimals) => {
      const text = value.toFixed(decimals);
      assert.equal(parse(text), Number(text), text);
    }),
    { numRuns: 2000 },
  );
  for (const text of ['0', '1700000000', '0.8097', '0.0025', '-0.5', '1.', '007', '123456789012345678', '1e3', '+5', '2.5E-1']) {
    assert.equal(parse(text), Number(text), text);
  }
});

test('what is not a number is NaN: empty, hex, Infinity, spaces, junk', () => {
  for (const text of ['', '.', '-', '0x10', 'Infinity', ' 5', '5 ', '1abc', '1.2.3', 'abc']) {
    assert.ok(Number.isNaN(parse(text)), JSON.stringify(text));
  }
});
