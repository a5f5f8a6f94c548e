import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeldTarget, type HeldTargetOptions } from '../../../src/recommender/tailor/held-target.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

function held(overrides: Partial<HeldTargetOptions> = {}): HeldTarget {
  return new HeldTarget({ low: 1, high: 1.25, cutAfterMs: 0, adaptive: false, regretMs: HOUR, minDelayMs: 15 * MIN, maxDelayMs: 8 * HOUR, ...overrides });
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

test('a cut waits until the lower level has lasted cutAfterMs; a dip that passes is not followed', () => {
  const h = held({ high: 1, cutAfterMs: HOUR });
  h.update(0, 500, 500);
  assert.equal(h.update(MIN, 300, 300), 500);
  assert.equal(h.update(30 * MIN, 300, 300), 500);
  // Back up before the hour is over: the wait starts again.
  assert.equal(h.update(40 * MIN, 450, 500), 500);
  assert.equal(h.update(50 * MIN, 300, 300), 500);
  assert.equal(h.update(50 * MIN + HOUR - 1, 300, 300), 500);
  assert.equal(h.update(50 * MIN + HOUR, 300, 300), 300);
});

test('adaptive: a raise soon after a cut doubles the wait before the next cut; a cut that held halves it', () => {
  const h = held({ high: 1, adaptive: true });
  h.update(0, 500, 500);
  // No wait yet: cut at once; raised 10 min later (within regretMs): the wait becomes 15 min.
  assert.equal(h.update(MIN, 200, 200), 200);
  assert.equal(h.update(11 * MIN, 500, 500), 500);
  assert.equal(h.update(12 * MIN, 200, 200), 500);
  assert.equal(h.update(27 * MIN, 200, 200), 200);
  // Regretted again: 30 min.
  assert.equal(h.update(28 * MIN, 500, 500), 500);
  assert.equal(h.update(29 * MIN, 200, 200), 500);
  assert.equal(h.update(58 * MIN, 200, 200), 500);
  assert.equal(h.update(59 * MIN, 200, 200), 200);
  // That cut held for over an hour: the next cut still waits 30 min, and as it happens the wait
  // halves to 15 min.
  assert.equal(h.update(3 * HOUR, 500, 500), 500);
  assert.equal(h.update(3 * HOUR + MIN, 200, 200), 500);
  assert.equal(h.update(3 * HOUR + 31 * MIN, 200, 200), 200);
  assert.equal(h.update(3 * HOUR + 32 * MIN, 500, 500), 500);
  // ...and this one was regretted (raised after 1 min): back to 30 min, not 60.
  assert.equal(h.update(3 * HOUR + 33 * MIN, 200, 200), 500);
  assert.equal(h.update(3 * HOUR + 63 * MIN, 200, 200), 200);
});

test('cutCostHours: a cut waits until the relative excess summed over time pays for it; a dip that comes back is never cut', () => {
  const h = held({ high: 1, cutCostHours: 0.25 });
  h.update(0, 500, 500);
  // Half the held value: 0.5 of excess per hour, paid after 30 min.
  assert.equal(h.update(MIN, 250, 250), 500);
  assert.equal(h.update(29 * MIN, 250, 250), 500);
  assert.equal(h.update(31 * MIN, 250, 250), 250);
  // 20% below (400 of 500 after a raise to 500): 0.2 per hour, paid after 75 min.
  h.update(32 * MIN, 500, 500);
  for (let m = 33; m < 32 + 75; m++) assert.equal(h.update(m * MIN, 400, 400), 500);
  assert.equal(h.update((32 + 76) * MIN, 400, 400), 400);
  // A 20-minute dip to half, then back: never paid, and the evidence starts again from zero.
  h.update(200 * MIN, 500, 500);
  for (let m = 201; m <= 220; m++) assert.equal(h.update(m * MIN, 250, 250), 500);
  assert.equal(h.update(221 * MIN, 500, 500), 500);
  for (let m = 222; m <= 240; m++) assert.equal(h.update(m * MIN, 250, 250), 500);
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

test('raiseCostAbsHours: a rise inside the band comes once the shortfall summed over time pays for it; past the band at once', () => {
  // Band low 0.8; 10 millicore-hours per raise.
  const h = held({ low: 0.8, high: 1, raiseCostAbsHours: 10 });
  h.update(0, 1000, 1000);
  // Need 1,100m: 100m short, paid after 6 min.
  assert.equal(h.update(5 * MIN, 1100, 1100), 1000);
  assert.equal(h.update(7 * MIN, 1100, 1150), 1150);
  // Past the band (1,150 < 1,500 x 0.8): at once.
  assert.equal(h.update(8 * MIN, 1500, 1500), 1500);
  // Without the price, a rise inside the band waits for ever.
  const plain = held({ low: 0.8, high: 1 });
  plain.update(0, 1000, 1000);
  assert.equal(plain.update(HOUR, 1100, 1100), 1000);
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
