import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pricedHold } from '../../../src/model/tailor/priced-hold.ts';

const HOUR = 3_600_000;
const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
const HOLDS = [HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 16 * HOUR];

/** A leak growing `perHour` from `now`'s need: covering h hours costs perHour x h. */
const leak = (need: number, perHour: number) => (holdMs: number) => need + (perHour * holdMs) / HOUR;

test('a small leak covers a long horizon, a large one a short one, for the same absolute price', () => {
  // 1 GiB growing 20 MiB/h: 4 h cost 80 MiB x 2 h = 160 MiB-h (0.16 GiB-h), 8 h 0.63: 4 h.
  assert.equal(pricedHold(HOLDS, leak(GIB, 20 * MIB), GIB, 0.25 * GIB), GIB + 80 * MIB);
  // 8 GiB growing 160 MiB/h: 2 h would cost 0.31 GiB-h: the first horizon, 1 h.
  assert.equal(pricedHold(HOLDS, leak(8 * GIB, 160 * MIB), 8 * GIB, 0.25 * GIB), 8 * GIB + 160 * MIB);
  // Nothing grows: the longest horizon is free.
  assert.equal(
    pricedHold(HOLDS, () => GIB, GIB, 0.25 * GIB),
    GIB,
  );
});

test('the first horizon is taken whatever it costs; a horizon that does not pay stops the search', () => {
  const values = new Map([
    [HOUR, 500],
    [2 * HOUR, 5000],
    [4 * HOUR, 600],
  ]);
  assert.equal(
    pricedHold([HOUR, 2 * HOUR, 4 * HOUR], (h) => values.get(h)!, 100, 1),
    500,
  );
});
