import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activitiesBetween, countByKind, deploymentOfPodName } from '../../src/demo/activity.ts';
import { node, pod, snap, updaterEvent, vpa } from './demo-fixtures.ts';

const T0 = 1_000_000;

test('a new recommendation is logged once, and again only when it changes as shown', () => {
  const before = snap(T0, { vpas: [vpa('web')] });
  const first = snap(T0 + 1000, { vpas: [vpa('web', { cpu: ['296m', '246m', '430m'] })] });
  assert.deepEqual(activitiesBetween(before, first), [{ at: T0 + 1000, kind: 'recommendation', subject: 'web', text: 'VPA web: app: cpu 296m [246m, 430m]' }]);
  assert.deepEqual(activitiesBetween(first, snap(T0 + 2000, { vpas: [vpa('web', { cpu: ['296m', '246m', '430m'] })] })), []);
  const memory = activitiesBetween(undefined, snap(T0, { vpas: [vpa('cache', { memory: ['380000000', '379999999', '507070005'] })] }));
  assert.equal(memory[0]!.text, 'VPA cache: app: memory 362Mi [362Mi, 484Mi]', 'bytes shown in MiB');
});

test("the updater's pod events become in-place, restart, fallback, eviction and refused lines; VPA events and others are not repeated", () => {
  const pods = [pod({ name: 'web-a', app: 'web' }), pod({ name: 'cache-a', app: 'cache' }), pod({ name: 'batch-a', app: 'batch' })];
  const events = [
    updaterEvent('e1', 'web-a', 'ResizedInPlace', 'OutsideBounds: app cpu request 600m above upperBound 430m'),
    updaterEvent('e2', 'cache-a', 'ResizedWithRestart', 'OutsideBounds: ...; restarts app'),
    updaterEvent('e3', 'batch-a', 'Evicted', 'FallbackInfeasible: resize infeasible on this node'),
    updaterEvent('e4', 'web-a', 'Evicted', 'OutsideBounds: recreate'),
    updaterEvent('e5', 'web-a', 'EvictionBlocked', 'a PodDisruptionBudget refused'),
    { ...updaterEvent('e6', 'web', 'ResizedInPlace', 'pod web-a: ...'), involvedObject: { kind: 'VerticalPodAutoscaler', name: 'web' } },
    { ...updaterEvent('e7', 'web-a', 'Started', 'Started container app'), source: 'kubelet' },
  ];
  const log = activitiesBetween(snap(T0, { pods }), snap(T0 + 1000, { pods, events }));
  assert.deepEqual(
    log.map((a) => `${a.kind} ${a.subject}`),
    ['in-place web', 'restart cache', 'fallback batch', 'eviction web', 'refused web'],
  );
  assert.equal(log[0]!.text, 'web-a: ResizedInPlace: OutsideBounds: app cpu request 600m above upperBound 430m');
  assert.deepEqual(activitiesBetween(snap(T0, { pods, events }), snap(T0 + 2000, { pods, events })), [], 'events already seen are not logged again');
});

test("an updater event whose pod no snapshot holds any more (evicted before its event was listed) names the pod's Deployment", () => {
  const events = [updaterEvent('e1', 'batch-qh46w2hqht-9c94j', 'Evicted', 'FallbackInfeasible: resize infeasible on this node')];
  const log = activitiesBetween(snap(T0, {}), snap(T0 + 1000, { events }));
  assert.deepEqual(
    log.map((a) => `${a.kind} ${a.subject}`),
    ['fallback batch'],
  );
  assert.equal(deploymentOfPodName('my-app-7d9f8b6c5d-x2x9q'), 'my-app');
  assert.equal(deploymentOfPodName('standalone'), 'standalone');
});

test('an OOM kill (restart count up, last state OOMKilled), an Infeasible resize, a pod admitted with the recommendation, a node that joined', () => {
  const before = snap(T0, {
    pods: [pod({ name: 'leaky-a', app: 'leaky', memoryLimit: '256Mi' }), pod({ name: 'batch-a', app: 'batch' })],
    nodes: [node('small-1', '2')],
  });
  const after = snap(T0 + 1000, {
    pods: [
      pod({ name: 'leaky-a', app: 'leaky', memoryLimit: '256Mi', restarts: 1, lastReason: 'OOMKilled' }),
      pod({
        name: 'batch-a',
        app: 'batch',
        conditions: [
          { type: 'PodResizePending', status: 'True', reason: 'Infeasible', message: "Node didn't have enough capacity: cpu, requested: 2281, capacity: 2000" },
        ],
      }),
      pod({ name: 'batch-b', app: 'batch', annotations: { vpaUpdates: 'Pod resources updated by batch: container 0: cpu request' } }),
    ],
    nodes: [node('small-1', '2'), node('large-1', '8')],
  });
  const log = activitiesBetween(before, after);
  assert.deepEqual(
    log.map((a) => `${a.kind} ${a.subject}: ${a.text}`),
    [
      'oom leaky: leaky-a/app OOM-killed (memory limit 256Mi), restart #1',
      "infeasible batch: batch-a: resize Infeasible: Node didn't have enough capacity: cpu, requested: 2281, capacity: 2000",
      'admitted batch: batch-b created with the recommendation by the admission webhook: Pod resources updated by batch: container 0: cpu request',
      'scale-up large-1: node large-1 joined (8 cpu, 32Gi)',
    ],
  );
  // On 1.32 the kubelet reports it in the legacy status.resize, without a message.
  const legacy = pod({ name: 'batch-a', app: 'batch' });
  (legacy.status as { resize?: string }).resize = 'Infeasible';
  assert.deepEqual(
    activitiesBetween(before, snap(T0 + 1000, { pods: [legacy] })).map((a) => a.text),
    ['batch-a: resize Infeasible'],
  );
  // A restart for a resize (reason Completed) is not an OOM kill.
  const resized = snap(T0 + 2000, { pods: [pod({ name: 'leaky-a', app: 'leaky', restarts: 2, lastReason: 'Completed' })] });
  assert.deepEqual(
    activitiesBetween(after, resized).filter((a) => a.kind === 'oom'),
    [],
  );
});

test('a pod admitted with a start-up cpu boost, and its turning Ready, are logged as boosted and ready', () => {
  const record = '{"until":"ready+10s","containers":{"app":{"request":250,"limit":250}}}';
  const starting = pod({
    name: 'boot-b',
    app: 'boot',
    cpu: '750m',
    annotations: { vpaUpdates: 'Pod resources updated by boot: container 0: cpu request', 'tailor.dev/startup-cpu-boost-record': record },
  });
  (starting.status as { startTime?: string }).startTime = new Date(T0).toISOString();
  const created = activitiesBetween(snap(T0, {}), snap(T0 + 1000, { pods: [starting] }));
  assert.deepEqual(
    created.map((a) => `${a.kind} ${a.subject}: ${a.text}`),
    ['boosted boot: boot-b created by the admission webhook with a start-up cpu boost until ready+10s: app cpu 750m (steady 250m)'],
  );
  const ready = structuredClone(starting);
  ready.status!.conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: new Date(T0 + 20_000).toISOString() }] as never;
  assert.deepEqual(
    activitiesBetween(snap(T0 + 1000, { pods: [starting] }), snap(T0 + 21_000, { pods: [ready] })).map((a) => `${a.kind} ${a.subject}: ${a.text}`),
    ['ready boot: boot-b Ready 20 s after its start (boosted)'],
  );
  assert.deepEqual(activitiesBetween(snap(T0 + 21_000, { pods: [ready] }), snap(T0 + 22_000, { pods: [ready] })), [], 'once');
});

test('counts by kind include zeros', () => {
  const counts = countByKind([
    { at: 0, kind: 'oom', subject: 'x', text: '' },
    { at: 0, kind: 'oom', subject: 'x', text: '' },
    { at: 0, kind: 'fallback', subject: 'y', text: '' },
  ]);
  assert.equal(counts.oom, 2);
  assert.equal(counts.fallback, 1);
  assert.equal(counts['in-place'], 0);
});
