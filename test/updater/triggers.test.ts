import { test } from 'node:test';
import assert from 'node:assert/strict';
import { relativeDifference, updateTriggers } from '../../src/updater/triggers.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { GiB, HOUR } from '../builders/time.ts';

const actual = new Map([['app', { requests: { cpu: 100, memory: GiB }, limits: {} }]]);

test('relative difference: cpu 100m vs 112m is 0.12, memory equal adds 0', () => {
  assert.ok(Math.abs(relativeDifference(actual, [{ containerName: 'app', target: { cpu: 112, memory: GiB } }]) - 0.12) < 1e-12);
});

test('relative difference sums over resources of the pod totals', () => {
  const two = new Map([
    ['a', { requests: { cpu: 100 }, limits: {} }],
    ['b', { requests: { cpu: 300 }, limits: {} }],
  ]);
  // totals 400m -> 500m: 0.25, whatever the split.
  assert.equal(
    relativeDifference(two, [
      { containerName: 'a', target: { cpu: 50 } },
      { containerName: 'b', target: { cpu: 450 } },
    ]),
    0.25,
  );
});

test('triggers list the most urgent first and name the containers', () => {
  const t = updateTriggers({
    actual,
    recommendations: [{ containerName: 'app', target: { cpu: 300 }, lowerBound: { cpu: 200 } }],
    podAgeMs: 13 * HOUR,
    oomKilled: ['app'],
    underPressure: [],
    options: updaterOptions(),
  });
  assert.deepEqual(
    t.map((x) => x.reason),
    ['OomKilled', 'OutsideBounds', 'Drift'],
  );
  assert.match(t[1]!.message, /app cpu request 100m below lowerBound 200m/);
});

test('drift exactly at the threshold counts (>= 10%, as upstream); the age rule needs a known start', () => {
  const rec = [{ containerName: 'app', target: { cpu: 110 } }];
  const base = { actual, recommendations: rec, oomKilled: [], underPressure: [], options: updaterOptions() };
  assert.deepEqual(
    updateTriggers({ ...base, podAgeMs: 12 * HOUR }).map((x) => x.reason),
    ['Drift'],
  );
  assert.deepEqual(updateTriggers({ ...base, podAgeMs: undefined }), []);
});
