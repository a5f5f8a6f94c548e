import { test } from 'node:test';
import assert from 'node:assert/strict';
import { underMemoryPressure } from '../../src/updater/memory-pressure.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { GiB, MiB, MINUTE } from '../builders/time.ts';

const o = updaterOptions();

test('pressure: min working set over >= 2 min above 90% of the limit (1Gi -> 921.6Mi)', () => {
  assert.equal(underMemoryPressure({ memoryWorkingSetMinBytes: 922 * MiB, memoryWindowMs: 2 * MINUTE }, GiB, o), true);
  assert.equal(underMemoryPressure({ memoryWorkingSetMinBytes: 921 * MiB, memoryWindowMs: 2 * MINUTE }, GiB, o), false);
  assert.equal(underMemoryPressure({ memoryWorkingSetMinBytes: 1000 * MiB, memoryWindowMs: 90_000 }, GiB, o), false);
  assert.equal(underMemoryPressure({ memoryWorkingSetMinBytes: 1000 * MiB, memoryWindowMs: 2 * MINUTE }, undefined, o), false, 'no limit, no pressure');
  assert.equal(underMemoryPressure(undefined, GiB, o), false);
});
