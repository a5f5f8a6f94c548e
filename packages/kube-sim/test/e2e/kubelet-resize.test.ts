import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster, appPod, apiFailure, resizeOps, eventReasons, JSON_PATCH, STRATEGIC_MERGE, type ClusterFixture } from './cluster-fixture.ts';
import type { V1Pod } from '@kubernetes/client-node';

const RES = { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } };
const cond = (pod: V1Pod, type: string) => pod.status?.conditions?.find((c) => c.type === type);

async function runningPod(f: ClusterFixture, name: string, extra: Parameters<typeof appPod>[2] = {}, resources = RES): Promise<V1Pod> {
  await f.core.createNamespacedPod({ namespace: 'default', body: appPod(name, resources, extra) });
  await f.tick(1000);
  const pod = await f.core.readNamespacedPod({ namespace: 'default', name });
  assert.equal(pod.status?.phase, 'Running');
  return pod;
}

for (const version of ['1.33', '1.35'] as const) {
  test(`e2e ${version}: a resize that fits goes InProgress (observedGeneration) and completes after actuation`, async (t) => {
    const f = await startCluster(version, [{ cpu: '2', memory: '4Gi' }]);
    t.after(() => f.close());
    await runningPod(f, 'web');
    const want = { requests: { cpu: '800m', memory: '300Mi' }, limits: { cpu: '1500m', memory: '600Mi' } };
    const before = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
    // Scheduled (pods/binding) and started (status writes): still the generation it was created with.
    assert.equal(before.metadata?.generation, 1, 'binding and status writes keep generation 1');
    assert.equal(before.status?.observedGeneration, 1);
    const patched = await f.core.patchNamespacedPodResize({ namespace: 'default', name: 'web', body: resizeOps(want) }, JSON_PATCH);
    const generation = patched.metadata?.generation;
    assert.equal(generation, 2, 'a resize bumps the generation');
    await f.tick(0);
    let pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
    assert.equal(cond(pod, 'PodResizeInProgress')?.status, 'True');
    assert.equal(cond(pod, 'PodResizeInProgress')?.observedGeneration, generation);
    assert.deepEqual(pod.status?.containerStatuses?.[0]?.allocatedResources, { cpu: '800m', memory: '300Mi' });
    assert.equal(pod.status?.containerStatuses?.[0]?.resources?.requests?.cpu, '500m');
    await f.tick(5000);
    pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
    assert.equal(cond(pod, 'PodResizeInProgress'), undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(pod.status?.containerStatuses?.[0]?.resources)), want);
    assert.equal(pod.status?.observedGeneration, generation);
    const reasons = await eventReasons(f.core, 'default', 'web');
    const recorded = reasons.includes('ResizeStarted') && reasons.includes('ResizeCompleted');
    assert.equal(recorded, version === '1.35', `resize events only from 1.34 kubelets: ${reasons.join()}`);
  });

  test(`e2e ${version}: Infeasible, then Deferred retried when another pod leaves`, async (t) => {
    const f = await startCluster(version, [{ cpu: '2', memory: '4Gi' }]);
    t.after(() => f.close());
    await runningPod(f, 'web');
    await runningPod(f, 'other', {}, { requests: { cpu: '1', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } });
    await f.core.patchNamespacedPodResize(
      { namespace: 'default', name: 'web', body: resizeOps({ requests: { cpu: '3', memory: '256Mi' }, limits: { cpu: '3', memory: '512Mi' } }) },
      JSON_PATCH,
    );
    await f.tick(0);
    let pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
    assert.equal(cond(pod, 'PodResizePending')?.reason, 'Infeasible');
    assert.equal(cond(pod, 'PodResizePending')?.message, "Node didn't have enough capacity: cpu, requested: 3000, capacity: 2000");

    const second = await f.core.patchNamespacedPodResize(
      { namespace: 'default', name: 'web', body: resizeOps({ requests: { cpu: '1500m', memory: '256Mi' }, limits: { cpu: '1500m', memory: '512Mi' } }) },
      JSON_PATCH,
    );
    await f.tick(0);
    pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
    assert.equal(cond(pod, 'PodResizePending')?.reason, 'Deferred');
    assert.equal(cond(pod, 'PodResizePending')?.message, "Node didn't have enough resource: cpu, requested: 1500, used: 1000, capacity: 2000");
    assert.equal(cond(pod, 'PodResizePending')?.observedGeneration, second.metadata?.generation);

    await f.core.deleteNamespacedPod({ namespace: 'default', name: 'other' });
    await f.tick(0);
    pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
    assert.equal(cond(pod, 'PodResizePending'), undefined);
    assert.equal(cond(pod, 'PodResizeInProgress')?.status, 'True');
    assert.equal(pod.status?.containerStatuses?.[0]?.allocatedResources?.cpu, '1500m');
  });

  test(`e2e ${version}: memory resizePolicy RestartContainer restarts the container with a Killing event`, async (t) => {
    const f = await startCluster(version);
    t.after(() => f.close());
    await runningPod(f, 'cache', { resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] });
    await f.core.patchNamespacedPodResize(
      {
        namespace: 'default',
        name: 'cache',
        body: { spec: { containers: [{ name: 'app', resources: { requests: { memory: '200Mi' }, limits: { memory: '400Mi' } } }] } },
      },
      STRATEGIC_MERGE,
    );
    await f.tick(0);
    const pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'cache' });
    const cs = pod.status?.containerStatuses?.[0];
    assert.equal(cs?.restartCount, 1);
    assert.equal(cs?.resources?.limits?.memory, '400Mi');
    assert.equal(cs?.resources?.requests?.cpu, '500m', 'strategic merge kept the other values');
    const events = await f.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=cache' });
    const killing = events.items.find((e) => e.reason === 'Killing');
    assert.equal(killing?.message, 'Container app resize requires restart');
  });

  test(`e2e ${version}: a pod on a node without resize support is refused`, async (t) => {
    const f = await startCluster(version, [{ resizeSupport: false }]);
    t.after(() => f.close());
    await runningPod(f, 'old');
    await assert.rejects(
      f.core.patchNamespacedPodResize(
        { namespace: 'default', name: 'old', body: resizeOps({ requests: { cpu: '600m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } }) },
        JSON_PATCH,
      ),
      (err: unknown) => {
        const { code, status } = apiFailure(err);
        assert.equal(code, 422);
        assert.equal(status.reason, 'Invalid');
        assert.equal(status.message, 'Pod "old" is invalid: spec: Forbidden: Pod running on node without support for resize');
        return true;
      },
    );
  });
}

test('e2e 1.33: a memory limit decrease with NotRequired is rejected with 422 and its cause', async (t) => {
  const f = await startCluster('1.33');
  t.after(() => f.close());
  await runningPod(f, 'web');
  await assert.rejects(
    f.core.patchNamespacedPodResize(
      { namespace: 'default', name: 'web', body: resizeOps({ requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '300Mi' } }) },
      JSON_PATCH,
    ),
    (err: unknown) => {
      const { code, status } = apiFailure(err);
      assert.equal(code, 422);
      assert.equal(status.reason, 'Invalid');
      assert.deepEqual(status.details?.causes, [
        {
          reason: 'FieldValueForbidden',
          message: 'Forbidden: memory limits cannot be decreased unless resizePolicy is RestartContainer',
          field: 'spec.containers[0].resources.limits[memory]',
        },
      ]);
      return true;
    },
  );
});

test('e2e 1.35: a memory limit decrease below usage stays InProgress with reason Error', async (t) => {
  const f = await startCluster('1.35');
  t.after(() => f.close());
  await runningPod(f, 'web', { annotations: { 'tailor.dev/sim-usage': '{"app": {"memory": "steady(400Mi)"}}' } });
  await f.tick(10_000);
  await f.core.patchNamespacedPodResize(
    { namespace: 'default', name: 'web', body: resizeOps({ requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '300Mi' } }) },
    JSON_PATCH,
  );
  await f.tick(0);
  const pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
  const progress = cond(pod, 'PodResizeInProgress');
  assert.equal(progress?.reason, 'Error');
  assert.match(progress?.message ?? '', /^attempting to set container "app" memory limit \(314572800\) below current usage \(419430400\)/);
  assert.equal(pod.status?.containerStatuses?.[0]?.restartCount, 0, 'no OOM kill');
  assert.equal(pod.status?.containerStatuses?.[0]?.resources?.limits?.memory, '512Mi');
});

test('e2e 1.32: no resize subresource; resources patched on the pod, legacy status.resize', async (t) => {
  const f = await startCluster('1.32');
  t.after(() => f.close());
  await runningPod(f, 'web');
  await assert.rejects(
    f.core.patchNamespacedPodResize({ namespace: 'default', name: 'web', body: resizeOps(RES) }, JSON_PATCH),
    (err: unknown) => apiFailure(err).code === 404,
  );
  const proposed = await f.core.patchNamespacedPod(
    { namespace: 'default', name: 'web', body: { spec: { containers: [{ name: 'app', resources: { requests: { cpu: '700m' } } }] } } },
    STRATEGIC_MERGE,
  );
  assert.equal((proposed.status as { resize?: string }).resize, 'Proposed', 'the API server marks the resize Proposed');
  // Before KEP-5067 (1.33) a pod has no generation, and spec changes do not give it one.
  assert.equal(proposed.metadata?.generation, undefined);
  await f.tick(0);
  let pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
  assert.equal((pod.status as { resize?: string }).resize, 'InProgress');
  assert.equal(
    pod.status?.conditions?.some((c) => c.type.startsWith('PodResize')),
    false,
  );
  await f.tick(5000);
  pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
  assert.equal((pod.status as { resize?: string }).resize, undefined);
  assert.equal(pod.status?.containerStatuses?.[0]?.resources?.requests?.cpu, '700m');
  await assert.rejects(
    f.core.patchNamespacedPod(
      { namespace: 'default', name: 'web', body: { spec: { containers: [{ name: 'app', resources: { requests: { cpu: '1', memory: '512Mi' } } }] } } },
      STRATEGIC_MERGE,
    ),
    (err: unknown) => {
      const { code, status } = apiFailure(err);
      assert.equal(code, 422);
      assert.match(status.message ?? '', /Pod QoS is immutable/);
      return true;
    },
  );
});
