import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeldTarget, type HeldTargetOptions } from '../../../src/model/tailor/held-target.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

function held(overrides: Partial<HeldTargetOptions> = {}): HeldTarget {
  return new HeldTarget({ low: 1, high: 1.25, ...overrides });
}

test('the target stays while it lies in [need x low, fresh x high]; it moves when it leaves the band', () => {
  const h = held();
  assert.equal(h.update(0, 480, 500), 500);
  // Fresh 450m (need 420m): 500 <= 450 x 1.25, kept.
  assert.equal(h.update(MIN, 420, 450), 500);
  // Fresh 380m: 500 > 475, the band is left: cut to 380m.
  assert.equal(h.update(2 * MIN, 350, 380), 380);
  // The need goes past the held value: raised at once to the fresh target.
  assert.equal(h.update(3 * MIN, 400, 430), 430);
  // A cap below the held value (e.g. the memory upper bound) moves it too.
  assert.equal(h.update(4 * MIN, 300, 400, 420), 400);
});

test('cutCostAbsHours: a cut that saves little in absolute terms waits long, a large one comes soon', () => {
  // 100 millicore-hours per cut.
  const small = held({ high: 1, cutCostAbsHours: 100 });
  small.update(0, 40, 40);
  // 40m -> 30m: 10 millicores of excess, paid after 10 h.
  for (let m = 1; m < 600; m += 10) assert.equal(small.update(m * MIN, 30, 30), 40);
  assert.equal(small.update(602 * MIN, 30, 30), 30);
  const large = held({ high: 1, cutCostAbsHours: 100 });
  large.update(0, 2000, 2000);
  // 2000m -> 1000m: 1000 millicores of excess, paid after 6 min.
  assert.equal(large.update(5 * MIN, 1000, 1000), 2000);
  assert.equal(large.update(7 * MIN, 1000, 1000), 1000);
});

test('a rise inside the band (need below held / low) waits; past the band it comes at once', () => {
  const h = held({ low: 0.8, high: 1 });
  h.update(0, 1000, 1000);
  assert.equal(h.update(HOUR, 1100, 1100), 1000);
  assert.equal(h.update(2 * HOUR, 1500, 1500), 1500);
});

test('a cut that is not allowed waits, its evidence still adds up; set() moves the held value at once', () => {
  const h = held({ high: 1, cutCostAbsHours: 100 });
  h.update(0, 500, 500);
  // 300m of excess pays 100 m-h after 20 min; not allowed, the cut waits.
  assert.equal(h.update(10 * MIN, 200, 200, Infinity, false), 500);
  assert.equal(h.update(30 * MIN, 200, 200, Infinity, false), 500);
  // Allowed again: already paid, cut now.
  assert.equal(h.update(31 * MIN, 200, 200), 200);
  h.set(350);
  assert.equal(h.update(32 * MIN, 300, 300), 350);
});

test('value: the held value, NaN before the first update', () => {
  const h = held();
  assert.ok(Number.isNaN(h.value));
  h.update(0, 480, 500);
  assert.equal(h.value, 500);
  h.set(300);
  assert.equal(h.value, 300);
});
