import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UpdaterMirror } from '../../../src/model/tailor/updater-mirror.ts';
import type { ResourceEstimate } from '../../../src/model/types.ts';
import { updaterOptions } from '../../../src/policy/update-thresholds.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const MIB = 1024 ** 2;

/** An estimate with CPU bounds [0.8, 1.25] and memory bounds [1, 1.3] x target. */
function est(cpu: number, memory: number): ResourceEstimate {
  return { target: { cpu, memory }, lowerBound: { cpu: cpu * 0.8, memory }, upperBound: { cpu: cpu * 1.25, memory: memory * 1.3 } };
}

function applied(m: UpdaterMirror, now: number, e: ResourceEstimate): 'urgent' | 'all' | undefined {
  const how = m.wouldAct(now, e);
  if (how !== undefined) m.apply(now, e, how);
  return how;
}

test('the first estimate is taken as applied; then the updater acts outside the bounds, one step, not within the cooldown unless short', () => {
  const m = new UpdaterMirror(updaterOptions());
  m.addCpuSample(0);
  m.addMemorySample(400 * MIB, 0);
  assert.equal(applied(m, 0, est(500, 500 * MIB)), 'all');
  assert.equal(m.cpu, 500);
  // Inside the bounds and a young pod (no drift before 12 h): nothing.
  assert.equal(m.wouldAct(20 * MIN, est(450, 500 * MIB)), undefined);
  // CPU need a little above (lowerBound 520m, 4% over the request): outside the bounds, but within the cooldown after the change at 0.
  assert.equal(m.wouldAct(10 * MIN, est(650, 500 * MIB)), undefined);
  // Far above (lowerBound 1600m): short by 10% or more, not held by the cooldown (decision 0296).
  assert.equal(m.wouldAct(10 * MIN, est(2000, 500 * MIB)), 'all');
  assert.equal(applied(m, 20 * MIN, est(2000, 500 * MIB)), 'all');
  // One step, beyond x2 up to the lowerBound (0.8 x 2000m): 1600m, not 1000m.
  assert.equal(m.cpu, 1600);
  assert.equal(m.changesWithin(20 * MIN, HOUR), 2);
  // Where x2 is above the lowerBound, the step rule holds: 1600m towards 5000m (lowerBound 2000m) goes to 3200m.
  assert.equal(applied(m, 40 * MIN, { ...est(5000, 500 * MIB), lowerBound: { cpu: 2000, memory: 500 * MIB } }), 'all');
  assert.equal(m.cpu, 3200, 'x2 (3200m) is above the lowerBound (2000m): the step rule');
});

test('a trigger that leaves the requests as they are is no change (a held target at the request, outside the fresh bounds)', () => {
  const m = new UpdaterMirror(updaterOptions());
  m.addMemorySample(400 * MIB, 0);
  applied(m, 0, est(500, 500 * MIB));
  // The request 500m is above the upper bound 250m, but the target is still 500m (held).
  const held = { ...est(200, 500 * MIB), target: { cpu: 500, memory: 500 * MIB } };
  assert.equal(m.wouldAct(HOUR, held), undefined);
});

test('drift counts only on a pod older than 12 h; memory pressure raises memory alone, x1.5, without a cooldown', () => {
  const m = new UpdaterMirror(updaterOptions());
  m.addCpuSample(0);
  m.addMemorySample(400 * MIB, 0);
  applied(m, 0, est(500, 500 * MIB));
  // Target 12% below, inside the bounds: drift only once the pod is 12 h old.
  assert.equal(m.wouldAct(11 * HOUR, est(440, 500 * MIB)), undefined);
  assert.equal(m.wouldAct(12 * HOUR, est(440, 500 * MIB)), 'all');
  // Working set at 95% of the limit for 2 minutes: the pressure guard.
  m.addMemorySample(475 * MIB, 12 * HOUR);
  m.addMemorySample(475 * MIB, 12 * HOUR + 2 * MIN);
  assert.equal(applied(m, 12 * HOUR + 2 * MIN, est(440, 500 * MIB)), 'urgent');
  assert.equal(m.memory, 750 * MIB);
  assert.equal(m.cpu, 500);
});

test("a memory decrease stops at the last hour's peak + max(15%, 64 MiB), as the updater's safety floor", () => {
  const m = new UpdaterMirror(updaterOptions());
  m.addMemorySample(900 * MIB, 0);
  applied(m, 0, est(500, 2000 * MIB));
  m.addMemorySample(800 * MIB, 30 * MIN);
  // The target 1,000 MiB lies below the floor 900 + 135 MiB.
  assert.equal(applied(m, HOUR - 1, est(500, 1000 * MIB)), 'all');
  assert.equal(m.memory, Math.ceil(900 * MIB * 1.15));
});
