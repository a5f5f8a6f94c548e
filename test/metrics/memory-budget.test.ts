import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectivePointsPerQuery, memoryBudgetType, MIN_POINTS_PER_QUERY, pointsForBudget } from '../../src/metrics/memory-budget.ts';

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
