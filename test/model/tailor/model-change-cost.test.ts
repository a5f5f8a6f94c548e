import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ModelChangeCost } from '../../../src/model/tailor/model-change-cost.ts';

const MIN = 60_000;
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} vs ${b}`);

test('a prediction inside the drift band of its level costs nothing; one outside pays one change per x2 step', () => {
  const c = new ModelChangeCost(1);
  c.tick(MIN);
  // Price 0.1 core-hour, q 0.9: a change is 0.1 x 0.1 / (1/60 h) = 0.6 loss units at 1-minute samples.
  assert.equal(c.cost(0, 1, 0.1, 2, 0.1, 0.9), 0); // the first prediction sets the level
  assert.equal(c.cost(0, 1.09, 0.1, 2, 0.1, 0.9), 0); // within 10%: no change
  close(c.cost(0, 1.5, 0.1, 2, 0.1, 0.9), 0.6); // one step up (x1.5)
  close(c.cost(0, 1.5 * 8, 0.1, 2, 0.1, 0.9), 3 * 0.6); // x8: three steps
  close(c.cost(0, 0.025, 0.1, 2, 0.1, 0.9), 9 * 0.6); // 12 -> 0.025: /480, nine halvings
});

test('predictors are followed separately, and the price scales with the sample interval', () => {
  const c = new ModelChangeCost(2);
  c.tick(5 * MIN);
  c.cost(0, 1, 0.1, 2, 0.1, 0.9);
  c.cost(1, 1, 0.1, 2, 0.1, 0.9);
  // 5-minute samples: a change is 0.01 / (1/12 h) = 0.12 loss units (the loss sums a fifth as many samples).
  close(c.cost(0, 2, 0.1, 2, 0.1, 0.9), 0.12);
  assert.equal(c.cost(1, 1.05, 0.1, 2, 0.1, 0.9), 0);
  // Samples at the same time (another pod's) do not move the interval.
  c.tick(0);
  close(c.cost(0, 4, 0.1, 2, 0.1, 0.9), 0.12);
});
