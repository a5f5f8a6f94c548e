/**
 * managedFields on kube-sim: a write with a fieldManager records {manager, operation, apiVersion,
 * time, subresource}; a later write refreshes that entry's time; a no-op write and another
 * manager's write to other fields leave it alone (a write without fieldManager is recorded under its
 * user agent, as on a real server); the updater reads its last change back with `lastUpdateTime`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lastUpdateTime } from '../../src/updater/pod-timing.ts';
import { appPod, JSON_PATCH, startCluster, T0 } from 'kube-sim/test/e2e/cluster-fixture';

const RES = { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } };
const cpuTo = (cpu: string) => [{ op: 'add', path: '/spec/containers/0/resources/requests/cpu', value: cpu }];
const memoryTo = (memory: string) => [{ op: 'add', path: '/spec/containers/0/resources/requests/memory', value: memory }];

test('kube-sim records managedFields with the time of each write that carries a fieldManager, per subresource', async (t) => {
  const f = await startCluster('1.35', [{ cpu: '4', memory: '8Gi' }]);
  t.after(() => f.close());
  f.sim.server.settings.userAgentManagers = true; // as on a real server (off by default in kube-sim for now)
  await f.core.createNamespacedPod({ namespace: 'default', body: appPod('web', RES), fieldManager: 'kubectl-create' });
  await f.tick(1000);
  let pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
  assert.deepEqual(
    pod.metadata!.managedFields!.map((e) => [e.manager, e.operation, e.apiVersion, e.subresource ?? '', e.time!.toISOString()]),
    [['kubectl-create', 'Update', 'v1', '', new Date(T0).toISOString()]],
  );
  assert.equal(lastUpdateTime(pod), undefined, 'no resize by the updater yet');

  await f.tick(60_000);
  const firstResizeAt = f.sim.cluster.clock.now();
  await f.core.patchNamespacedPodResize({ namespace: 'default', name: 'web', body: cpuTo('600m'), fieldManager: 'tailor-updater' }, JSON_PATCH);
  pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
  const resizeEntry = pod.metadata!.managedFields!.find((e) => e.manager === 'tailor-updater');
  assert.equal(resizeEntry?.subresource, 'resize');
  assert.equal(resizeEntry?.fieldsType, 'FieldsV1');
  assert.equal(lastUpdateTime(pod), Math.floor(firstResizeAt / 1000) * 1000, 'RFC 3339 keeps whole seconds');

  await f.tick(120_000);
  await f.core.patchNamespacedPodResize({ namespace: 'default', name: 'web', body: cpuTo('600m'), fieldManager: 'tailor-updater' }, JSON_PATCH);
  // Another writer without fieldManager: the real server records it under its user agent, and it
  // owns what it changed (memory); the updater keeps its entry for cpu (kube-sim fidelity corpus).
  await f.core.patchNamespacedPodResize({ namespace: 'default', name: 'web', body: memoryTo('300Mi') }, JSON_PATCH);
  pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
  assert.equal(
    lastUpdateTime(pod),
    Math.floor(firstResizeAt / 1000) * 1000,
    "a no-op and another manager's write to other fields leave the updater's entry alone",
  );
  assert.equal(pod.metadata!.managedFields!.filter((e) => e.manager === 'tailor-updater').length, 1);
  assert.equal(
    pod.metadata!.managedFields!.filter((e) => e.subresource === 'resize' && e.manager !== 'tailor-updater').length,
    1,
    'the write without fieldManager is recorded under its user agent',
  );

  const secondResizeAt = f.sim.cluster.clock.now();
  await f.core.patchNamespacedPodResize({ namespace: 'default', name: 'web', body: cpuTo('800m'), fieldManager: 'tailor-updater' }, JSON_PATCH);
  pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
  assert.equal(lastUpdateTime(pod), Math.floor(secondResizeAt / 1000) * 1000);
  assert.equal(pod.metadata!.managedFields!.filter((e) => e.manager === 'tailor-updater').length, 1, 'the entry is refreshed, not duplicated');
});
