/**
 * Per-workload annotations end to end on kube-sim 1.35: a disruption window holds evictions (the
 * VPA's WaitingForDisruptionWindow condition and event say until when) and lets them go once it
 * opens; a per-workload pace (50% steps, 5 min cooldown) resizes in smaller, quicker steps; a bad
 * annotation leaves the workload alone with the AnnotationsInvalid condition naming it, until it
 * is fixed. Time is kube-sim's clock (starts 2026-01-01T00:00:00Z, 01:00 in Berlin).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { createVpa, deployment, podsOf, startUpdaterFixture, summary, type UpdaterFixture } from './updater-fixture.ts';

const VPA_REF = { group: 'autoscaling.k8s.io', version: 'v1', namespace: 'default', plural: 'verticalpodautoscalers' };
const readVpa = async (f: UpdaterFixture, name: string) => (await f.custom.getNamespacedCustomObject({ ...VPA_REF, name })) as VerticalPodAutoscaler;
const condition = async (f: UpdaterFixture, name: string, type: string) => (await readVpa(f, name)).status?.conditions?.find((c) => c.type === type);
const vpaEvents = async (f: UpdaterFixture, name: string, reason: string) =>
  (await f.core.listNamespacedEvent({ namespace: 'default' })).items.filter(
    (e) => e.involvedObject.kind === 'VerticalPodAutoscaler' && e.involvedObject.name === name && e.reason === reason,
  );
async function gauge(f: UpdaterFixture, condition: string): Promise<number> {
  const metric = await f.registry.getSingleMetric('tailor_updater_workload_conditions')!.get();
  return metric.values.find((v) => v.labels.condition === condition)?.value ?? -1;
}
const cpuOf = (p: k8s.V1Pod) => p.spec!.containers[0]!.resources!.requests!.cpu;
const app = (cpu: string) => [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu, memory: '128Mi' } } }];
const up = [
  {
    containerName: 'app',
    target: { cpu: '400m', memory: '128Mi' },
    lowerBound: { cpu: '300m', memory: '100Mi' },
    upperBound: { cpu: '800m', memory: '200Mi' },
  },
];

test('workload annotations e2e: disruption window, pace, and a bad annotation', async (t) => {
  const f = await startUpdaterFixture('1.35', [{ cpu: '16', memory: '32Gi' }]);
  t.after(() => f.close());
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('nightly', 4, app('100m')) });
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('paced', 1, app('100m')) });
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('broken', 1, app('100m')) });
  await f.tick(2000);
  // 03:00-03:59 in Berlin = 02:00-02:59 UTC in January
  await createVpa(f, 'nightly', 'Recreate', up, {
    annotations: { 'tailor.dev/disruption-windows': '* 3 * * *', 'tailor.dev/disruption-window-timezone': 'Europe/Berlin', 'tailor.dev/canary-share': '0%' },
  });
  await createVpa(f, 'paced', 'InPlaceOrRecreate', up, { annotations: { 'tailor.dev/max-increase': '50%', 'tailor.dev/cooldown': '5m' } });
  await createVpa(f, 'broken', 'InPlaceOrRecreate', up, { annotations: { 'tailor.dev/cooldown': '5 minutes' } });

  const first = await f.loop();
  const lines = summary(first).sort();
  assert.deepEqual(lines, [
    'broken Skip InvalidAnnotation',
    'nightly Wait DisruptionWindow',
    'nightly Wait DisruptionWindow',
    'nightly Wait DisruptionWindow',
    'nightly Wait DisruptionWindow',
    'paced ResizeInPlace OutsideBounds',
  ]);
  assert.equal(f.calls.filter((c) => c.startsWith('evict')).length, 0, 'nothing evicted outside the window');

  // the window: a condition and an event on the VPA, with when it opens
  const waiting = await condition(f, 'nightly', 'WaitingForDisruptionWindow');
  assert.equal(waiting?.status, 'True');
  assert.equal(
    waiting?.message,
    '4 pod(s) wait for an eviction or restart: outside the disruption window * 3 * * * (Europe/Berlin); it opens next at 2026-01-01T02:00:00.000Z',
  );
  assert.equal((await vpaEvents(f, 'nightly', 'WaitingForDisruptionWindow')).length, 1);
  assert.equal(await gauge(f, 'WaitingForDisruptionWindow'), 1);

  // the bad annotation: named in the condition and a Warning event; the pod is left as it is
  const invalid = await condition(f, 'broken', 'AnnotationsInvalid');
  assert.equal(
    invalid?.message,
    'tailor.dev/cooldown: "5 minutes": not a duration (write e.g. 90s, 5m, 1h30m); the updater leaves this workload\'s pods alone until it is fixed',
  );
  const [warning] = await vpaEvents(f, 'broken', 'AnnotationsInvalid');
  assert.equal(warning?.type, 'Warning');
  assert.equal(await gauge(f, 'AnnotationsInvalid'), 1);

  // pace: 100m -> 150m (50%), not 200m
  await f.tick(6000);
  assert.equal(cpuOf((await podsOf(f, 'paced'))[0]!), '150m');

  // a steady loop writes nothing new
  const writes = f.calls.filter((c) => c.startsWith('vpa-status')).length;
  await f.loop();
  assert.equal(f.calls.filter((c) => c.startsWith('vpa-status')).length, writes, 'unchanged conditions are not rewritten');

  // 6 minutes later the 5 min cooldown is over: 150m -> 225m (the global 15 min would still wait)
  await f.tick(6 * 60_000);
  const second = await f.loop();
  assert.ok(summary(second).includes('paced ResizeInPlace OutsideBounds'), summary(second).join(', '));
  await f.tick(6000);
  assert.equal(cpuOf((await podsOf(f, 'paced'))[0]!), '225m');

  // the annotation is fixed: the condition goes, the pod is resized
  await f.custom.patchNamespacedCustomObject(
    { ...VPA_REF, name: 'broken', body: { metadata: { annotations: { 'tailor.dev/cooldown': '5m' } } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  const fixed = await f.loop();
  assert.ok(summary(fixed).includes('broken ResizeInPlace OutsideBounds'), summary(fixed).join(', '));
  assert.equal(await condition(f, 'broken', 'AnnotationsInvalid'), undefined);
  assert.equal(await gauge(f, 'AnnotationsInvalid'), 0);

  // 02:00:30 UTC = 03:00:30 in Berlin: the window is open, the budget (2 of 4) is evicted
  const now = f.sim.cluster.clock.now();
  await f.tick(Date.parse('2026-01-01T02:00:30Z') - now);
  const open = await f.loop();
  assert.equal(summary(open).filter((l) => l === 'nightly Evict OutsideBounds').length, 2, summary(open).join(', '));
  assert.equal(f.calls.filter((c) => c.startsWith('evict default/nightly')).length, 2);
  assert.equal(await condition(f, 'nightly', 'WaitingForDisruptionWindow'), undefined, 'removed once nothing waits for the window');
});
