import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckpointSchedule, CHECKPOINT_DEFAULTS, isDue } from '../../../src/controller/recommender/checkpoint-schedule.ts';

const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);

test('a checkpoint written at 10:00 with a 10 min interval is due again from 10:10, not at 10:09:59', () => {
  const s = new CheckpointSchedule(10 * MIN, 60 * MIN);
  assert.equal(s.due('ns/web/app', T0), true, 'never written: due');
  s.wrote('ns/web/app', T0);
  assert.equal(s.due('ns/web/app', T0 + 10 * MIN - 1000), false);
  assert.equal(s.due('ns/web/app', T0 + 10 * MIN), true);
  assert.equal(s.due('ns/db/pg', T0 + MIN), true, 'each checkpoint on its own clock');
});

test('one-minute cycles write each checkpoint on every tenth cycle with the defaults', () => {
  const s = new CheckpointSchedule(CHECKPOINT_DEFAULTS.intervalMs, CHECKPOINT_DEFAULTS.gcIntervalMs);
  const writes: number[] = [];
  for (let cycle = 0; cycle < 30; cycle++) {
    const now = T0 + cycle * MIN;
    if (s.due('a', now)) {
      s.wrote('a', now);
      writes.push(cycle);
    }
  }
  assert.deepEqual(writes, [0, 10, 20]);
});

test('a failed write keeps the checkpoint due; retain forgets checkpoints that are gone', () => {
  const s = new CheckpointSchedule(10 * MIN, 60 * MIN);
  s.wrote('a', T0);
  s.wrote('b', T0);
  // b's write at 10:10 fails (not recorded): still due at 10:11.
  s.wrote('a', T0 + 10 * MIN);
  assert.equal(s.due('b', T0 + 11 * MIN), true);
  assert.equal(s.due('a', T0 + 11 * MIN), false);
  s.retain(new Set(['b']));
  assert.equal(s.due('a', T0 + 11 * MIN), true, 'forgotten: due as if new');
});

test('the orphan sweep runs at the first cycle, then once per GC interval', () => {
  const s = new CheckpointSchedule(10 * MIN, 60 * MIN);
  assert.equal(s.gcDue(T0), true);
  s.sweptAt(T0);
  assert.equal(s.gcDue(T0 + 59 * MIN), false);
  assert.equal(s.gcDue(T0 + 60 * MIN), true);
  assert.equal(isDue(undefined, T0, 1), true);
});
