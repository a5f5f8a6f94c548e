import { test } from 'node:test';
import assert from 'node:assert/strict';
import { container, pod } from '../builders/pods.ts';
import { MINUTE, NOW } from '../builders/time.ts';
import { vpa } from '../builders/vpas.ts';
import { decide } from './planner-fixtures.ts';

const RECORD = 'tailor.dev/startup-cpu-boost-record';
const recommend = { app: { target: { cpu: '500m', memory: '256Mi' }, lower: { cpu: '400m' }, upper: { cpu: '600m' } } };
function boosted(until: string, readyAgo: number | undefined, mode: 'InPlaceOrRecreate' | 'Initial' | 'Recreate' | 'Off' = 'InPlaceOrRecreate') {
  const ready = readyAgo === undefined ? { type: 'Ready', status: 'False' } : { type: 'Ready', status: 'True', lastTransitionTime: new Date(NOW - readyAgo) };
  const p = pod({
    name: 'web-1',
    startedAgo: 2 * MINUTE,
    conditions: [ready],
    containers: [container('app', { requests: { cpu: '1500m', memory: '256Mi' }, limits: { cpu: '1500m', memory: '256Mi' } })],
  });
  p.metadata!.annotations = { [RECORD]: JSON.stringify({ until, containers: { app: { request: 500, limit: 500 } } }) };
  return decide(p, vpa({ recommend, mode }));
}

test('while the boost lasts the pod waits (no other change); after, the cpu goes back in place, limit with request', () => {
  assert.deepEqual([boosted('ready+30s', 10_000).action, boosted('ready+30s', 10_000).reason], ['Wait', 'StartupBoost']);
  assert.match(boosted('ready', undefined).message, /not Ready yet/);
  const d = boosted('ready+30s', 40_000);
  assert.deepEqual([d.action, d.reason, d.disruptive, d.urgent], ['ResizeInPlace', 'StartupBoostEnded', false, true]);
  assert.deepEqual(
    d.changes.map((c) => [c.containerName, c.to.requests.cpu, c.to.limits.cpu, c.restart]),
    [['app', 500, 500, false]],
  );
});

test('a fixed boost time counts from the start; mode Initial and Recreate give it back in place too', () => {
  // started 2 min ago, not Ready: a 60 s boost is over, a 180 s one is not
  assert.equal(boosted('60s', undefined).reason, 'StartupBoostEnded');
  assert.equal(boosted('180s', undefined).reason, 'StartupBoost');
  assert.equal(boosted('180s', undefined, 'Initial').reason, 'StartupBoost');
  assert.equal(boosted('ready', MINUTE, 'Initial').reason, 'StartupBoostEnded');
  assert.equal(boosted('ready', MINUTE, 'Recreate').action, 'ResizeInPlace');
});

test('containers with their own ends go back each at its end (upstream 1.8: per-container durations)', () => {
  const p = pod({
    name: 'web-1',
    startedAgo: 5 * MINUTE,
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date(NOW - 2 * MINUTE) }],
    containers: [container('app', { requests: { cpu: '200m' } }), container('log', { requests: { cpu: '200m' } })],
  });
  p.metadata!.annotations = {
    [RECORD]: JSON.stringify({ until: 'ready+65s', containers: { app: { request: 100 }, log: { request: 100, until: 'ready+185s' } } }),
  };
  const first = decide(p, vpa({ recommend: { app: { target: { cpu: '100m' } }, log: { target: { cpu: '100m' } } } }));
  assert.deepEqual([first.action, first.reason], ['ResizeInPlace', 'StartupBoostEnded']);
  assert.deepEqual(
    first.changes.map((c) => [c.containerName, c.to.requests.cpu]),
    [['app', 100]],
  );
  assert.match(first.message, /for app; still boosted: start-up cpu boost until ready\+185s: 65 s left/);
  // app given back: log still boosted, the pod waits.
  p.spec!.containers[0]!.resources!.requests!['cpu'] = '100m';
  p.status!.containerStatuses![0]!.resources = { requests: { cpu: '100m' } };
  const then = decide(p, vpa({ recommend: { app: { target: { cpu: '100m' } }, log: { target: { cpu: '100m' } } } }));
  assert.deepEqual([then.action, then.reason], ['Wait', 'StartupBoost']);
});

test('updateMode Off: a boost the webhook gave (upstream boosts in Off too) is still given back; nothing else happens', () => {
  const d = boosted('ready', MINUTE, 'Off');
  assert.deepEqual([d.action, d.reason], ['ResizeInPlace', 'StartupBoostEnded']);
  assert.equal(boosted('ready+300s', MINUTE, 'Off').reason, 'StartupBoost');
});
