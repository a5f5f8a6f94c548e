/** The chaos lane's seeded fault schedule: reproducible, inside the run's active window, every kind in each round. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FAULT_KINDS, QUIET_END_MS, QUIET_START_MS, faultSchedule } from './fault-schedule.ts';

test('the same seed gives the same faults; another seed other ones', () => {
  assert.deepEqual(faultSchedule(7, 45), faultSchedule(7, 45));
  assert.notDeepEqual(faultSchedule(7, 45), faultSchedule(8, 45));
});

test('45 minutes: at least 40 faults, each kind in every full round, all inside the window, lasting ones ended by its end', () => {
  const faults = faultSchedule(7, 45);
  assert.equal(faults.length, 53);
  // 40 minutes leave room for a few faults not made (a kill of the webhook while it is at 0) above the 40.
  assert.equal(faultSchedule(7, 40).length, 46);
  for (let round = 0; round + FAULT_KINDS.length <= faults.length; round += FAULT_KINDS.length) {
    assert.deepEqual(new Set(faults.slice(round, round + FAULT_KINDS.length).map((f) => f.kind)), new Set(FAULT_KINDS));
  }
  for (const f of faults) {
    assert.ok(f.at >= QUIET_START_MS && f.at + f.lasts <= 45 * 60_000 - QUIET_END_MS, JSON.stringify(f));
    assert.ok(f.node === 1 || f.node === 2);
  }
  assert.deepEqual(
    faults.map((f) => f.at),
    [...faults.map((f) => f.at)].sort((a, b) => a - b),
    'in time order',
  );
  assert.ok(faults.some((f) => f.kind === 'prometheus-down' && f.lasts >= 120_000));
});

test("a short run has a few faults (CI's 6 minutes: 1); a run shorter than the quiet stretches has none", () => {
  assert.equal(faultSchedule(1, 10).length, 6);
  assert.equal(faultSchedule(1, 6).length, 1);
  assert.deepEqual(faultSchedule(1, 5), []);
});
