import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_UPDATER_OPTIONS, updaterOptions, UpdaterOptionsError } from '../../src/policy/update-thresholds.ts';

test('the defaults are the ones issue 7 names', () => {
  const o = updaterOptions();
  assert.equal(o.minPodAgeForDriftMs, 12 * 3_600_000);
  assert.equal(o.driftThreshold, 0.1);
  assert.equal(o.memoryPressureRatio, 0.9);
  assert.equal(o.memoryPressureWindowMs, 120_000);
  assert.equal(o.maxStepUpFactor, 2);
  assert.equal(o.maxStepDownFactor, 0.5);
  assert.equal(o.deferredTimeoutMs, 300_000);
  assert.equal(o.inProgressTimeoutMs, 3_600_000);
  assert.equal(o.evictionTolerance, 0.5);
  assert.equal(o.minReplicas, 2);
  assert.equal(o.allowContainerRestart, false);
});

test('overrides replace single fields; the defaults object stays frozen', () => {
  assert.equal(updaterOptions({ driftThreshold: 0.2 }).driftThreshold, 0.2);
  assert.equal(DEFAULT_UPDATER_OPTIONS.driftThreshold, 0.1);
  assert.throws(() => ((DEFAULT_UPDATER_OPTIONS as { driftThreshold: number }).driftThreshold = 1), TypeError);
});

test('values out of range are refused with the field named', () => {
  assert.throws(
    () => updaterOptions({ maxStepUpFactor: 1 }),
    (e: unknown) => e instanceof UpdaterOptionsError && /maxStepUpFactor = 1: must be > 1/.test(e.message),
  );
  assert.throws(() => updaterOptions({ maxStepDownFactor: 1.5 }), /maxStepDownFactor/);
  assert.throws(() => updaterOptions({ memoryPressureRatio: 0 }), /memoryPressureRatio/);
  assert.throws(() => updaterOptions({ podCooldownMs: -1 }), /podCooldownMs/);
  assert.throws(() => updaterOptions({ minReplicas: 0.5 }), /minReplicas/);
});
