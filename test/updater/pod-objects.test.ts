/** Times, OOM kills and permissions read from objects (pod-timing.ts, oom.ts, annotations.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containerRestartAllowed } from '../../src/updater/annotations.ts';
import { oomKills, quickOomKills, recentOomKills } from '../../src/updater/oom.ts';
import { lastUpdateTime, podStartTime } from '../../src/updater/pod-timing.ts';
import { container, pod } from '../builders/pods.ts';
import { ago, HOUR, MINUTE, NOW } from '../builders/time.ts';
import { vpa } from '../builders/vpas.ts';

const app = container('app', { requests: { cpu: '100m' } });

test('start time from status.startTime, else creationTimestamp, else unknown', () => {
  assert.equal(podStartTime(pod({ containers: [app], startedAgo: 3 * HOUR })), NOW - 3 * HOUR);
  const created = pod({ containers: [app], startedAgo: 2 * HOUR });
  delete created.status!.startTime;
  assert.equal(podStartTime(created), NOW - 2 * HOUR);
  assert.equal(podStartTime(pod({ containers: [app], startedAgo: null })), undefined);
});

test("last update: the later of the annotation and the updater's managedFields entry on resize", () => {
  assert.equal(lastUpdateTime(pod({ containers: [app] })), undefined);
  assert.equal(lastUpdateTime(pod({ containers: [app], resizedAgo: 10 * MINUTE })), NOW - 10 * MINUTE);
  const both = pod({ containers: [app], resizedAgo: 10 * MINUTE, annotations: { 'tailor.dev/last-update': ago(3 * MINUTE) } });
  assert.equal(lastUpdateTime(both), NOW - 3 * MINUTE);
  const other = pod({ containers: [app], resizedAgo: 10 * MINUTE });
  other.metadata!.managedFields![0]!.manager = 'kubectl';
  assert.equal(lastUpdateTime(other), undefined, "another manager's resize is not ours");
  const legacy = pod({ containers: [app], resizedAgo: 10 * MINUTE });
  delete legacy.metadata!.managedFields![0]!.subresource;
  assert.equal(lastUpdateTime(legacy), NOW - 10 * MINUTE, 'before 1.33 the updater patches the pod itself');
  legacy.metadata!.managedFields![0]!.subresource = 'status';
  assert.equal(lastUpdateTime(legacy), undefined, 'a status write is no resize');
});

test('OOM kills from lastState.terminated, with finishedAt', () => {
  const p = pod({ containers: [container('app', { oomKilledAgo: 5 * MINUTE }), container('log')] });
  assert.deepEqual(oomKills(p), [{ containerName: 'app', at: NOW - 5 * MINUTE }]);
  p.status!.containerStatuses![0]!.lastState!.terminated!.reason = 'Error';
  assert.deepEqual(oomKills(p), []);
});

test('quick OOM kills (evictAfterOOMSeconds): ran less than the threshold, less than the threshold ago', () => {
  const killed = (ago: number, ranFor?: number) =>
    pod({ containers: [container('app', { oomKilledAgo: ago, ...(ranFor !== undefined ? { oomRanFor: ranFor } : {}) })] });
  assert.deepEqual(oomKills(killed(MINUTE, 5_000)), [{ containerName: 'app', at: NOW - MINUTE, ranMs: 5_000 }]);
  assert.equal(quickOomKills(killed(MINUTE, 5_000), NOW, 600, undefined).length, 1);
  assert.equal(quickOomKills(killed(MINUTE, 5_000), NOW, 1, undefined).length, 0, 'ran 5 s: not under 1 s');
  assert.equal(quickOomKills(killed(11 * MINUTE, 5_000), NOW, 600, undefined).length, 0, '11 min ago: not within 600 s');
  assert.equal(quickOomKills(killed(MINUTE), NOW, 600, undefined).length, 0, 'no start time: not known to be quick');
  assert.equal(quickOomKills(killed(MINUTE, 5_000), NOW, 600, NOW - 30_000).length, 0, 'answered by the last change');
});

test('recent OOM kills: within the lookback and after the last update', () => {
  const p = pod({ containers: [container('app', { oomKilledAgo: 5 * MINUTE })] });
  assert.equal(recentOomKills(p, NOW, HOUR, undefined).length, 1);
  assert.equal(recentOomKills(p, NOW, 4 * MINUTE, undefined).length, 0);
  assert.equal(recentOomKills(p, NOW, HOUR, NOW - 2 * MINUTE).length, 0);
  assert.equal(recentOomKills(p, NOW, HOUR, NOW - 6 * MINUTE).length, 1);
});

test('restart permission: the VPA annotation wins over the global default', () => {
  assert.equal(containerRestartAllowed(vpa(), false), false);
  assert.equal(containerRestartAllowed(vpa(), true), true);
  assert.equal(containerRestartAllowed(vpa({ annotations: { 'tailor.dev/allow-container-restart': 'true' } }), false), true);
  assert.equal(containerRestartAllowed(vpa({ annotations: { 'tailor.dev/allow-container-restart': 'False' } }), true), false);
});
