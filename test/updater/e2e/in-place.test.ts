/**
 * The updater end to end on kube-sim 1.32 (feature gate on: the pod itself is patched), 1.33 and 1.35 (watch caches, planner, executor over HTTPS):
 * a single-replica Deployment gets a NotRequired cpu increase in place without restart; a
 * RestartContainer memory change restarts exactly that container; and an updater restarted
 * mid-resize neither loses the resize nor sends it twice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { createVpa, deployment, podsOf, startUpdaterFixture, summary } from './updater-fixture.ts';

const RES = { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } };

for (const version of ['1.32', '1.33', '1.35'] as const) {
  test(`updater e2e ${version}: a single-replica Deployment gets a NotRequired cpu increase in place, without restart; a restarted updater does nothing twice`, async (t) => {
    const f = await startUpdaterFixture(version, [{ cpu: '4', memory: '8Gi' }]);
    t.after(() => f.close());
    await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', 1, [{ name: 'app', image: 'nginx:1.27', resources: RES }]) });
    await f.tick(2000);
    await createVpa(f, 'web', 'InPlaceOrRecreate', [
      {
        containerName: 'app',
        target: { cpu: '800m', memory: '256Mi' },
        lowerBound: { cpu: '700m', memory: '200Mi' },
        upperBound: { cpu: '1600m', memory: '400Mi' },
      },
    ]);
    const [before] = await podsOf(f, 'web');

    const first = await f.loop();
    assert.deepEqual(summary(first), ['web ResizeInPlace OutsideBounds']);
    assert.deepEqual(f.calls, [`resize default/${before!.metadata!.name}`, 'event Pod/ResizedInPlace', 'event VerticalPodAutoscaler/ResizedInPlace']);

    // restart mid-resize: the new updater sees the resize in flight and waits; nothing is resent
    await f.tick(0);
    await f.restartUpdater();
    const during = await f.loop();
    assert.match(summary(during)[0]!, /^web Wait Resize(InProgress|Proposed)$/);
    assert.equal(f.calls.filter((c) => c.startsWith('resize')).length, 1);

    await f.tick(5000);
    const [after] = await podsOf(f, 'web');
    assert.equal(after!.metadata!.uid, before!.metadata!.uid, 'the same pod');
    assert.equal(after!.status!.containerStatuses![0]!.resources!.requests!.cpu, '800m');
    assert.equal(after!.status!.containerStatuses![0]!.restartCount, 0);
    assert.equal(after!.status!.qosClass, 'Burstable');

    await f.restartUpdater();
    const settled = await f.loop();
    assert.deepEqual(summary(settled), ['web Skip WithinBounds']);
    assert.equal(f.calls.filter((c) => c.startsWith('resize')).length, 1, 'done once');

    // a new recommendation within 15 minutes of the resize waits: the restarted updater read the
    // time of its last change from the pod's managedFields (kube-sim records them like the API server).
    // 800m is 6% below the new lowerBound 850m: not short enough to skip the cooldown (decision 0296).
    await f.custom.patchNamespacedCustomObjectStatus(
      {
        group: 'autoscaling.k8s.io',
        version: 'v1',
        namespace: 'default',
        plural: 'verticalpodautoscalers',
        name: 'web',
        body: {
          status: {
            recommendation: {
              containerRecommendations: [{ containerName: 'app', target: { cpu: '1200m', memory: '256Mi' }, lowerBound: { cpu: '850m', memory: '200Mi' } }],
            },
          },
        },
      },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await f.tick(60_000);
    assert.deepEqual(summary(await f.loop()), ['web Wait Cooldown']);
    await f.tick(15 * 60_000);
    assert.deepEqual(summary(await f.loop()), ['web ResizeInPlace OutsideBounds']);
  });

  test(`updater e2e ${version}: a RestartContainer memory change restarts exactly that container`, async (t) => {
    const f = await startUpdaterFixture(version, [{ cpu: '4', memory: '8Gi' }]);
    t.after(() => f.close());
    const res = { requests: { cpu: '200m', memory: '256Mi' }, limits: { memory: '512Mi' } };
    await f.apps.createNamespacedDeployment({
      namespace: 'default',
      body: deployment('jvm', 1, [
        { name: 'app', image: 'app:1', resources: res, resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] },
        { name: 'log', image: 'log:1', resources: res },
      ]),
    });
    await f.tick(2000);
    await createVpa(
      f,
      'jvm',
      'InPlaceOrRecreate',
      [
        {
          containerName: 'app',
          target: { cpu: '200m', memory: '400Mi' },
          lowerBound: { cpu: '100m', memory: '350Mi' },
          upperBound: { cpu: '400m', memory: '800Mi' },
        },
        {
          containerName: 'log',
          target: { cpu: '200m', memory: '256Mi' },
          lowerBound: { cpu: '100m', memory: '200Mi' },
          upperBound: { cpu: '400m', memory: '400Mi' },
        },
      ],
      { minReplicas: 1, annotations: { 'tailor.dev/allow-container-restart': 'true' } },
    );
    const report = await f.loop();
    assert.deepEqual(summary(report), ['jvm ResizeWithRestart OutsideBounds']);
    assert.deepEqual(
      report.results.map((r) => r.outcome),
      ['applied'],
    );
    await f.tick(5000);
    await f.tick(5000);
    const [pod] = await podsOf(f, 'jvm');
    const byName = Object.fromEntries(pod!.status!.containerStatuses!.map((s) => [s.name, s]));
    assert.equal(byName['app']!.resources!.requests!.memory, '400Mi');
    assert.equal(byName['app']!.restartCount, 1, 'app restarts (memory RestartContainer)');
    assert.equal(byName['log']!.restartCount, 0, 'log is left running');
  });
}
