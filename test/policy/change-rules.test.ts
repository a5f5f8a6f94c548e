import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coolingDown, isDrift, limitStep, memoryLimitFloor, oldEnoughToDrift, relativeChange, safeMemoryLimit } from '../../src/policy/change-rules.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { GiB, HOUR, MiB, MINUTE } from '../builders/time.ts';

const o = updaterOptions();

test('step: x2 up, x0.5 down per change, whole units', () => {
  assert.equal(limitStep(300, 1000, o), 600);
  assert.equal(limitStep(2048, 512, o), 1024);
  assert.equal(limitStep(3, 1, o), 2, 'ceil(3 x 0.5) = 2');
  assert.equal(limitStep(300, 450, o), 450);
  assert.equal(limitStep(undefined, 450, o), 450, 'a new value has nothing to step from');
  assert.equal(limitStep(0, 450, o), 450, 'nor has a zero one');
  assert.equal(limitStep(300, 1000, updaterOptions({ maxStepUpFactor: 1.5 })), 450, 'the options set the factor');
});

test('drift: |target - request| / request summed, from 12 h of age, at 10% and above 0', () => {
  assert.equal(relativeChange(100, 112), 0.12);
  assert.equal(relativeChange(100, 88), 0.12);
  assert.equal(relativeChange(0, 500), 0, 'no request, no measure');
  assert.equal(isDrift(0.12, o), true);
  assert.equal(isDrift(0.1, o), true);
  assert.equal(isDrift(0.09, o), false);
  assert.equal(isDrift(0, updaterOptions({ driftThreshold: 0 })), false, 'no difference is never drift');
  assert.equal(oldEnoughToDrift(12 * HOUR, o), true);
  assert.equal(oldEnoughToDrift(12 * HOUR - 1, o), false);
  assert.equal(oldEnoughToDrift(undefined, o), false, 'an unknown age is not old enough');
});

test('cooldown: 15 min after a change, or what the options say', () => {
  assert.equal(coolingDown(14 * MINUTE, o), true);
  assert.equal(coolingDown(15 * MINUTE, o), false);
  assert.equal(coolingDown(14 * MINUTE, updaterOptions({ podCooldownMs: 5 * MINUTE })), false);
});

test('memory floor = peak + max(15%, 64Mi): 800Mi -> 920Mi, 200Mi -> 264Mi; unknown peak -> never lower', () => {
  assert.equal(memoryLimitFloor(800 * MiB, o), 920 * MiB);
  assert.equal(memoryLimitFloor(200 * MiB, o), 264 * MiB);
  assert.equal(memoryLimitFloor(undefined, o), Infinity);
});

test('a memory decrease stops at min(current, floor); increases pass through', () => {
  assert.equal(safeMemoryLimit(GiB, 512 * MiB, 920 * MiB), 920 * MiB);
  assert.equal(safeMemoryLimit(GiB, 512 * MiB, 2 * GiB), GiB);
  assert.equal(safeMemoryLimit(GiB, 512 * MiB, 264 * MiB), 512 * MiB);
  assert.equal(safeMemoryLimit(GiB, 2 * GiB, 4 * GiB), 2 * GiB);
});
