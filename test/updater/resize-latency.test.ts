import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import type { PodDecision } from '../../src/updater/decision.ts';
import { recommendationTime, resizeCompleted, ResizeLatencyTracker, type LatencySample } from '../../src/updater/resize-latency.ts';
import { container, pod, resizeInProgress } from '../builders/pods.ts';

const MiB = 1024 * 1024;
const T = Date.UTC(2026, 5, 1, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');

function vpaWritten(...times: number[]): VerticalPodAutoscaler {
  return {
    metadata: {
      name: 'web',
      namespace: 'shop',
      managedFields: [
        { manager: 'kubectl', operation: 'Update', time: iso(T - 3600_000) },
        ...times.map((t) => ({ manager: 'tailor-recommender', operation: 'Update', subresource: 'status', time: iso(t) })),
      ],
    },
    spec: { targetRef: { kind: 'Deployment', name: 'web' } },
  } as unknown as VerticalPodAutoscaler;
}

const decision = (action: PodDecision['action']): PodDecision => ({
  namespace: 'shop',
  podName: 'web-1',
  workload: 'Deployment/shop/web',
  action,
  reason: 'OutsideBounds',
  message: '',
  disruptive: false,
  urgent: false,
  scaleUp: true,
  difference: 0.6,
  hpaExcluded: [],
  notes: [],
  changes: [
    {
      containerName: 'app',
      kind: 'container',
      from: { requests: { cpu: 500, memory: 256 * MiB }, limits: {} },
      to: { requests: { cpu: 800, memory: 256 * MiB }, limits: {} },
      resources: ['cpu'],
      restart: false,
    },
  ],
});

const before = pod({ containers: [container('app', { requests: { cpu: '500m', memory: '256Mi' } })] });
const pending = pod({
  containers: [container('app', { requests: { cpu: '800m', memory: '256Mi' }, actual: { requests: { cpu: '500m', memory: '256Mi' } } })],
  conditions: [resizeInProgress(0)],
});
const done = pod({ containers: [container('app', { requests: { cpu: '800m', memory: '256Mi' } })] });
for (const p of [before, pending, done]) p.metadata!.uid = 'uid-1';

test('the recommendation time is the newest status write in managedFields', () => {
  assert.equal(recommendationTime(vpaWritten(T - 60_000, T - 5000)), T - 5000);
  assert.equal(recommendationTime(vpaWritten()), undefined);
});

test('a resize has completed when the kubelet reports the values sent and nothing is in flight', () => {
  const changes = decision('ResizeInPlace').changes;
  assert.equal(resizeCompleted(before, changes), false, 'not yet sent');
  assert.equal(resizeCompleted(pending, changes), false, 'in progress');
  assert.equal(resizeCompleted(done, changes), true);
});

test('worked number: status written 12:00:00, first seen 12:00:40, sent 12:00:40, completion seen 12:00:43 -> 43 s since recommendation', () => {
  const samples: LatencySample[] = [];
  const tracker = new ResizeLatencyTracker((s) => samples.push(s));
  tracker.noteDecisions([decision('ResizeInPlace')], T + 40_000);
  tracker.noteApplied(decision('ResizeInPlace'), before, vpaWritten(T), T + 40_000);
  assert.equal(tracker.podSeen(pending, T + 41_000), undefined);
  assert.deepEqual(tracker.podSeen(done, T + 43_000), { pod: 'shop/web-1', path: 'in-place', since: 'recommendation', seconds: 43 });
  assert.equal(tracker.podSeen(done, T + 50_000), undefined, 'counted once');
  assert.equal(samples.length, 1);
});

test('a status written after the difference was first seen: the first sight is the start', () => {
  const samples: LatencySample[] = [];
  const tracker = new ResizeLatencyTracker((s) => samples.push(s));
  tracker.noteDecisions([decision('Wait')], T); // e.g. the canary held it
  tracker.noteDecisions([decision('ResizeWithRestart')], T + 60_000);
  tracker.noteApplied(decision('ResizeWithRestart'), before, vpaWritten(T + 30_000), T + 60_000);
  tracker.podSeen(done, T + 65_000);
  assert.deepEqual(samples, [{ pod: 'shop/web-1', path: 'restart', since: 'first-seen', seconds: 65 }]);
});

test('a recreated namesake, a pod gone from the plan or an eviction is not measured', () => {
  const samples: LatencySample[] = [];
  const tracker = new ResizeLatencyTracker((s) => samples.push(s));
  tracker.noteApplied(decision('ResizeInPlace'), before, vpaWritten(T), T);
  const namesake = structuredClone(done);
  namesake.metadata!.uid = 'uid-2';
  tracker.podSeen(namesake, T + 1000);
  tracker.podSeen(done, T + 2000);
  tracker.noteApplied(decision('ResizeInPlace'), before, vpaWritten(T), T);
  tracker.noteDecisions([], T + 1000);
  tracker.podSeen(done, T + 2000);
  tracker.noteApplied(decision('Evict'), before, vpaWritten(T), T);
  assert.equal(tracker.inFlight, 0);
  assert.deepEqual(samples, []);
});
