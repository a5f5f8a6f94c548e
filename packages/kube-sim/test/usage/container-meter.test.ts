import { test } from 'node:test';
import assert from 'node:assert/strict';
import { advanceMeter, newMeter } from '../../src/usage/container-meter.ts';

test('cpu below the limit: the counter grows by cores x seconds, no throttling', () => {
  const { meter } = advanceMeter(newMeter(), { dtMs: 60_000, cpuDemand: 250, memoryDemand: 100, cpuLimit: 500 });
  assert.equal(meter.cpuSecondsTotal, 15);
  assert.equal(meter.cfsPeriodsTotal, 600);
  assert.equal(meter.cfsThrottledPeriodsTotal, 0);
  assert.equal(meter.cpuMillicores, 250);
});

test('cpu above the limit is capped at the limit and every period is throttled', () => {
  const { meter } = advanceMeter(newMeter(), { dtMs: 60_000, cpuDemand: 900, memoryDemand: 100, cpuLimit: 500 });
  assert.equal(meter.cpuSecondsTotal, 30);
  assert.equal(meter.cfsThrottledPeriodsTotal, 600);
  assert.equal(meter.cpuMillicores, 500);
});

test('memory above the limit is an OOM kill', () => {
  const first = advanceMeter(newMeter(), { dtMs: 1000, cpuDemand: 0, memoryDemand: 600, memoryLimit: 512 });
  assert.equal(first.oomKilled, true);
  assert.equal(first.meter.oomEventsTotal, 1);
  const ok = advanceMeter(first.meter, { dtMs: 1000, cpuDemand: 0, memoryDemand: 500, memoryLimit: 512 });
  assert.equal(ok.oomKilled, false);
  assert.equal(ok.meter.workingSetBytes, 500);
  assert.equal(ok.meter.oomEventsTotal, 1);
});
