import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckpointSchedule, CHECKPOINT_DEFAULTS, isDue } from '../../src/recommender/checkpoint-schedule.ts';

const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);

test('a checkpoint written at 10:00 with a 10 min interval is due again from 10:10, not at 10:09:59', () => {
  const s = new CheckpointSchedule(10 * MIN, 60 * MIN);
  assert.equal(s.due('ns/web/app', T0, 0), true, 'never written: due');
  s.wrote('ns/web/app', T0, 0);
  assert.equal(s.due('ns/web/app', T0 + 10 * MIN - 1000, 0), false);
  assert.equal(s.due('ns/web/app', T0 + 10 * MIN, 0), true);
  assert.equal(s.due('ns/db/pg', T0 + MIN, 0), true, 'each checkpoint on its own clock');
});

test('one-minute cycles write each checkpoint on every tenth cycle with the defaults', () => {
  const s = new CheckpointSchedule(CHECKPOINT_DEFAULTS.intervalMs, CHECKPOINT_DEFAULTS.gcIntervalMs);
  const writes: number[] = [];
  for (let cycle = 0; cycle < 30; cycle++) {
    const now = T0 + cycle * MIN;
    if (s.due('a', now, 0)) {
      s.wrote('a', now, 0);
      writes.push(cycle);
    }
  }
  assert.deepEqual(writes, [0, 10, 20]);
});

test('a failed write keeps the checkpoint due; retain forgets checkpoints that are gone', () => {
  const s = new CheckpointSchedule(10 * MIN, 60 * MIN);
  s.wrote('a', T0, 0);
  s.wrote('b', T0, 0);
  // b's write at 10:10 fails (not recorded): still due at 10:11.
  s.wrote('a', T0 + 10 * MIN, 0);
  assert.equal(s.due('b', T0 + 11 * MIN, 0), true);
  assert.equal(s.due('a', T0 + 11 * MIN, 0), false);
  s.retain(new Set(['b']));
  assert.equal(s.due('a', T0 + 11 * MIN, 0), true, 'forgotten: due as if new');
});

test('the orphan sweep runs at the first cycle, then once per GC interval', () => {
  const s = new CheckpointSchedule(10 * MIN, 60 * MIN);
  assert.equal(s.gcDue(T0), true);
  s.sweptAt(T0);
  assert.equal(s.gcDue(T0 + 59 * MIN), false);
  assert.equal(s.gcDue(T0 + 60 * MIN), true);
  assert.equal(isDue(undefined, T0, 1), true);
});

test('a restored checkpoint is written as soon as it has new samples, else one interval after its lastUpdateTime', () => {
  const s = new CheckpointSchedule(10 * MIN, 10 * MIN);
  s.restored('ns/web/app', T0 - 2 * MIN, 120);
  assert.equal(s.due('ns/web/app', T0, 120), false, 'nothing new since it was read');
  assert.equal(s.due('ns/web/app', T0 + MIN, 121), true, 'new samples: written at 10:01, not at 10:08');
  s.wrote('ns/web/app', T0 + MIN, 121);
  assert.equal(s.due('ns/web/app', T0 + 2 * MIN, 125), false, 'then on the interval again');
  assert.equal(s.due('ns/web/app', T0 + 11 * MIN, 125), true);
  s.restored('ns/db/pg', T0 - 10 * MIN, 7);
  assert.equal(s.due('ns/db/pg', T0, 7), true, 'no new samples, but an interval old');
});

test('changed: the shutdown flush skips a checkpoint with no sample since its last write', () => {
  const s = new CheckpointSchedule(10 * MIN, 10 * MIN);
  assert.equal(s.changed('a', 3), true, 'never written');
  s.wrote('a', T0, 3);
  assert.equal(s.changed('a', 3), false);
  assert.equal(s.changed('a', 4), true);
  s.restored('b', T0, 9);
  assert.equal(s.changed('b', 9), false, 'as read at start-up');
});

test("the orphan sweep's default is upstream's --checkpoints-gc-interval, 10 min", () => {
  assert.equal(CHECKPOINT_DEFAULTS.gcIntervalMs, 10 * MIN);
});
