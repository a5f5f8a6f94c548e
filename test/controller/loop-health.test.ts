import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LoopHealth } from '../../src/controller/loop-health.ts';

const MIN = 60_000;

test('live while cycles keep ending; unhealthy after 3 intervals without one (worked example)', () => {
  const h = new LoopHealth('recommender', MIN, 3);
  h.setActive(true, 0);
  assert.equal(h.live(3 * MIN), undefined, 'no cycle yet, but only 3 intervals since becoming active');
  assert.match(h.live(3 * MIN + 1)!, /recommender: no cycle has ended for 180 s \(limit 3 intervals of 60 s\)/);
  h.cycleEnded('recommender', { ok: false, startedAt: 4 * MIN, durationMs: 60_000 });
  assert.equal(h.live(5 * MIN + 3 * MIN), undefined, 'a failed cycle still counts as the loop going on');
  assert.ok(h.live(8 * MIN + 1), 'unhealthy from 3 intervals after the last cycle end');
});

test('ready after the first successful cycle; a standby replica is live and ready', () => {
  const h = new LoopHealth('updater', MIN, 3);
  assert.equal(h.ready(), undefined, 'standby');
  assert.equal(h.live(100 * MIN), undefined, 'standby: no cycles expected');
  h.setActive(true, 100 * MIN);
  assert.equal(h.ready(), 'updater: no successful cycle yet');
  h.cycleEnded('updater', { ok: false, startedAt: 101 * MIN, durationMs: 1000 });
  assert.ok(h.ready());
  h.cycleEnded('updater', { ok: true, startedAt: 102 * MIN, durationMs: 1000 });
  assert.equal(h.ready(), undefined);
  h.setActive(false, 103 * MIN);
  h.setActive(true, 200 * MIN);
  assert.equal(h.live(202 * MIN), undefined, 'the clock restarts when leadership comes back');
});
