import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryLimitFloor, safeMemoryLimit } from '../../src/updater/memory-safety.ts';
import { underMemoryPressure } from '../../src/updater/memory-pressure.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { GiB, MiB, MINUTE } from '../builders/time.ts';

const o = updaterOptions();

test('floor = peak + max(15%, 64Mi): 800Mi -> 920Mi, 200Mi -> 264Mi; unknown peak -> never lower', () => {
  assert.equal(memoryLimitFloor(800 * MiB, o), 920 * MiB);
  assert.equal(memoryLimitFloor(200 * MiB, o), 264 * MiB);
  assert.equal(memoryLimitFloor(undefined, o), Infinity);
});

test('a decrease stops at min(current, floor); increases pass through', () => {
  assert.equal(safeMemoryLimit(GiB, 512 * MiB, 920 * MiB), 920 * MiB);
  assert.equal(safeMemoryLimit(GiB, 512 * MiB, 2 * GiB), GiB);
  assert.equal(safeMemoryLimit(GiB, 512 * MiB, 264 * MiB), 512 * MiB);
  assert.equal(safeMemoryLimit(GiB, 2 * GiB, 4 * GiB), 2 * GiB);
});

test('pressure: min working set over >= 2 min above 90% of the limit (1Gi -> 921.6Mi)', () => {
  assert.equal(underMemoryPressure({ memoryWorkingSetMinBytes: 922 * MiB, memoryWindowMs: 2 * MINUTE }, GiB, o), true);
  assert.equal(underMemoryPressure({ memoryWorkingSetMinBytes: 921 * MiB, memoryWindowMs: 2 * MINUTE }, GiB, o), false);
  assert.equal(underMemoryPressure({ memoryWorkingSetMinBytes: 1000 * MiB, memoryWindowMs: 90_000 }, GiB, o), false);
  assert.equal(underMemoryPressure({ memoryWorkingSetMinBytes: 1000 * MiB, memoryWindowMs: 2 * MINUTE }, undefined, o), false, 'no limit, no pressure');
  assert.equal(underMemoryPressure(undefined, GiB, o), false);
});
