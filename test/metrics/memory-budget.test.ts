import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  budgetExhausted,
  effectivePointsPerQuery,
  memoryBudgetType,
  minimumBudgetBytes,
  MIN_POINTS_PER_QUERY,
  pointsForBudget,
  pointsForHeadroom,
} from '../../src/metrics/memory-budget.ts';

const MiB = 2 ** 20;

test('a budget gives a quarter of itself to the answers in flight (2 batches x 3 queries x 72 B per point)', () => {
  assert.equal(pointsForBudget(512 * MiB, 2), 310_689);
  assert.equal(pointsForBudget(128 * MiB, 2), 77_672);
  assert.equal(pointsForBudget(128 * MiB, 4), 38_836);
  assert.equal(pointsForBudget(1 * MiB, 2), MIN_POINTS_PER_QUERY);
});

test('the configured ceiling stays when the budget allows more, and none without a budget', () => {
  assert.equal(effectivePointsPerQuery(250_000, 2, 512 * MiB), 250_000);
  assert.equal(effectivePointsPerQuery(250_000, 2, 128 * MiB), 77_672);
  assert.equal(effectivePointsPerQuery(250_000, 2, undefined), 250_000);
});

test('--memory-budget takes a quantity of at least 128Mi', () => {
  assert.equal(memoryBudgetType.parse('512Mi'), 512 * MiB);
  assert.equal(memoryBudgetType.parse('1Gi'), 1024 * MiB);
  assert.throws(() => memoryBudgetType.parse('64Mi'), /at least 128Mi/);
  assert.throws(() => memoryBudgetType.parse('lots'));
});

test('answers are sized from the headroom left: 40% of (budget - resident - model growth), at most the fixed quarter', () => {
  // The worked example of pointsForHeadroom: 192 MiB, 137 MiB resident, 3 MiB to come.
  assert.equal(pointsForHeadroom({ budgetBytes: 192 * MiB, residentBytes: 137 * MiB, growthBytes: 3 * MiB, concurrency: 2 }), 50_486);
  // A process far below its budget gets the fixed quarter, never more.
  assert.equal(pointsForHeadroom({ budgetBytes: 512 * MiB, residentBytes: 20 * MiB, growthBytes: 0, concurrency: 2 }), pointsForBudget(512 * MiB, 2));
  // Nothing left: the smallest answers, and the budget is said to be used up.
  const full = { budgetBytes: 192 * MiB, residentBytes: 200 * MiB, growthBytes: 0, concurrency: 2 };
  assert.equal(pointsForHeadroom(full), MIN_POINTS_PER_QUERY);
  assert.equal(budgetExhausted(full), true);
  assert.equal(budgetExhausted({ ...full, residentBytes: 100 * MiB }), false);
});

test("the smallest budget a read fits in: resident set, model to come, smallest answers with the collector's room", () => {
  const MiB = 2 ** 20;
  // The worked example: 137 MiB resident, 3 MiB to come, 2 batches: 140 MiB + 11,000 x 6 x 72 B / 0.4.
  const state = { residentBytes: 137 * MiB, growthBytes: 3 * MiB, concurrency: 2 };
  assert.equal(minimumBudgetBytes(state), Math.ceil(140 * MiB + (11_000 * 6 * 72) / 0.4));
  assert.equal(budgetExhausted({ ...state, budgetBytes: minimumBudgetBytes(state) }), false);
  assert.equal(budgetExhausted({ ...state, budgetBytes: minimumBudgetBytes(state) - 1 }), true);
});
