/**
 * A closed disruption window on kube-sim 1.35 holds only the disruptive part of a resize: a
 * Guaranteed pod whose cpu (resizePolicy NotRequired) and memory (RestartContainer) are both below
 * the recommendation gets its cpu in place at once — request and limit together, the QoS class
 * kept, nothing restarted — while the memory change, which restarts the container, waits for the
 * window; the VPA's WaitingForDisruptionWindow condition says so. Once the window opens, the memory
 * follows with one restart and the condition goes. Time is kube-sim's clock (starts
 * 2026-01-01T00:00:00Z, 01:00 in Berlin).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { createVpa, deployment, podsOf, startUpdaterFixture, summary } from './updater-fixture.ts';

const VPA_REF = { group: 'autoscaling.k8s.io', version: 'v1', namespace: 'default', plural: 'verticalpodautoscalers' };
const STEADY = { cpu: '100m', memory: '128Mi' };
const APP = [
  {
    name: 'app',
    image: 'nginx:1.27',
    resources: { requests: STEADY, limits: STEADY },
    resizePolicy: [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'memory', restartPolicy: 'RestartContainer' },
    ],
  },
];
const UP = [
  {
    containerName: 'app',
    target: { cpu: '200m', memory: '256Mi' },
    lowerBound: { cpu: '150m', memory: '200Mi' },
    upperBound: { cpu: '400m', memory: '512Mi' },
  },
];
// 03:00-03:59 in Berlin = 02:00-02:59 UTC in January: closed at the start
const ANNOTATIONS = {
  'tailor.dev/disruption-windows': '* 3 * * *',
  'tailor.dev/disruption-window-timezone': 'Europe/Berlin',
  'tailor.dev/allow-container-restart': 'true',
  'tailor.dev/cooldown': '1m',
};
const WAITING = '1 pod(s) wait for an eviction or restart: outside the disruption window * 3 * * * (Europe/Berlin); it opens next at 2026-01-01T02:00:00.000Z';

test('window split e2e: the window closed, cpu goes in place (Guaranteed kept, no restart), the memory restart waits with the condition; then it follows', async (t) => {
  const f = await startUpdaterFixture('1.35', [{ cpu: '4', memory: '8Gi' }]);
  t.after(() => f.close());
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('mixed', 1, APP) });
  await f.tick(2000);
  await createVpa(f, 'mixed', 'InPlaceOrRecreate', UP, { minReplicas: 1, annotations: ANNOTATIONS });
  const [before] = await podsOf(f, 'mixed');
  const condition = async () =>
    ((await f.custom.getNamespacedCustomObject({ ...VPA_REF, name: 'mixed' })) as VerticalPodAutoscaler).status?.conditions?.find(
      (c) => c.type === 'WaitingForDisruptionWindow',
    );

  const first = await f.loop();
  assert.deepEqual(summary(first), ['mixed ResizeInPlace OutsideBounds']);
  assert.deepEqual(
    first.results.map((r) => r.outcome),
    ['applied'],
  );
  assert.match(first.decisions[0]!.message, /waits: app memory \(restart\): outside the disruption window/);
  assert.equal((await condition())?.message, WAITING);

  await f.tick(5000);
  const [resized] = await podsOf(f, 'mixed');
  const status = resized!.status!.containerStatuses![0]!;
  assert.equal(resized!.metadata!.uid, before!.metadata!.uid, 'the same pod');
  const { requests, limits } = status.resources!;
  assert.deepEqual(
    [requests!.cpu, limits!.cpu, requests!.memory, limits!.memory],
    ['200m', '200m', '128Mi', '128Mi'],
    'cpu applied, request and limit; memory untouched',
  );
  assert.equal(status.restartCount, 0, 'nothing restarted');
  assert.equal(resized!.status!.qosClass, 'Guaranteed');

  // after the cooldown only the memory restart is left: it waits, the condition says so
  await f.tick(70_000);
  const later = await f.loop();
  assert.deepEqual(summary(later), ['mixed Wait DisruptionWindow']);
  assert.match(later.decisions[0]!.message, /\(planned: ResizeWithRestart OutsideBounds: .*restarts app\)$/);
  assert.deepEqual(
    later.decisions[0]!.changes.map((c) => c.resources),
    [['memory']],
  );
  assert.equal((await condition())?.message, WAITING);
  assert.equal(f.calls.filter((c) => c.startsWith('resize')).length, 1, 'one resize so far');

  // 02:00:30 UTC = 03:00:30 in Berlin: the window is open, memory follows with a restart
  await f.tick(Date.parse('2026-01-01T02:00:30Z') - f.sim.cluster.clock.now());
  const open = await f.loop();
  assert.deepEqual(summary(open), ['mixed ResizeWithRestart OutsideBounds']);
  await f.tick(5000);
  await f.tick(5000);
  const [done] = await podsOf(f, 'mixed');
  assert.equal(done!.status!.containerStatuses![0]!.resources!.limits!.memory, '256Mi');
  assert.equal(done!.status!.containerStatuses![0]!.restartCount, 1);
  assert.equal(done!.status!.qosClass, 'Guaranteed');
  assert.equal(await condition(), undefined, 'removed once nothing waits for the window');
});
