/**
 * A pod with pod-level resources resized in place through the API server and the simulated kubelet,
 * as on the real v1.36.3 / v1.37.2 (accepted, applied, no restart) and v1.35.4 (refused).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { startCluster, apiFailure, JSON_PATCH, type ClusterFixture } from './cluster-fixture.ts';
import type { Pod } from '../../src/objects.ts';

const POD: V1Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'pl' },
  spec: {
    resources: { requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '400m', memory: '128Mi' } },
    containers: [{ name: 'app', image: 'busybox' }],
  },
};

const cond = (pod: Pod, type: string) => pod.status?.conditions?.find((c) => c.type === type);
const add = (path: string, value: string) => ({ op: 'add', path, value });

/** The pod as stored (client-node's V1PodStatus drops the pod-level `allocatedResources` and `resources`). */
function stored(f: ClusterFixture): Pod {
  return f.sim.server.store.get('pods', 'default', 'pl') as unknown as Pod;
}

async function resize(f: ClusterFixture, ops: object[]): Promise<unknown> {
  try {
    await f.core.patchNamespacedPodResize({ namespace: 'default', name: 'pl', body: ops }, JSON_PATCH);
    return undefined;
  } catch (err) {
    return err;
  }
}

for (const version of ['1.36', '1.37'] as const) {
  test(`e2e ${version}: a pod-level resize (the updater's add ops) is applied in place: status.resources follows, no restart`, async (t) => {
    const f = await startCluster(version, [{ cpu: '2', memory: '4Gi' }]);
    t.after(() => f.close());
    await f.core.createNamespacedPod({ namespace: 'default', body: POD });
    await f.tick(1000);
    const started = stored(f);
    assert.equal(started.status?.qosClass, 'Burstable');
    assert.deepEqual(started.status?.allocatedResources, { cpu: '200m', memory: '64Mi' });

    assert.equal(await resize(f, [add('/spec/resources/requests/cpu', '300m'), add('/spec/resources/limits/cpu', '500m')]), undefined);
    await f.tick(0);
    const allocated = stored(f);
    assert.equal(allocated.metadata?.generation, 2);
    assert.deepEqual(allocated.status?.allocatedResources, { cpu: '300m', memory: '64Mi' });
    assert.equal(cond(allocated, 'PodResizeInProgress')?.status, 'True');
    await f.tick(5000);
    const applied = stored(f);
    assert.equal(cond(applied, 'PodResizeInProgress'), undefined);
    assert.deepEqual(applied.status?.resources, { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '300m', memory: '64Mi' } });
    assert.equal(applied.status?.containerStatuses?.[0]?.restartCount, 0);

    const beyond = apiFailure(await resize(f, [add('/spec/resources/requests/cpu', '3'), add('/spec/resources/limits/cpu', '3')]));
    assert.equal(beyond.code, 403);
    assert.equal(beyond.status.message, `pods "pl" is forbidden: node didn't have enough allocatable resources: cpu, requested: 3000, allocatable: 2000`);
  });
}

test('e2e 1.35: the same resize is refused, the pod keeps its resources and reports no pod-level status', async (t) => {
  const f = await startCluster('1.35', [{ cpu: '2', memory: '4Gi' }]);
  t.after(() => f.close());
  await f.core.createNamespacedPod({ namespace: 'default', body: POD });
  await f.tick(1000);
  const failure = apiFailure(await resize(f, [add('/spec/resources/requests/cpu', '300m'), add('/spec/resources/limits/cpu', '500m')]));
  assert.equal(failure.code, 422);
  assert.equal(
    failure.status.message,
    'Pod "pl" is invalid: []: Forbidden: resize of pods with pod-level resources is forbidden when InPlacePodLevelResourcesVerticalScalingEnabled feature gate is disabled',
  );
  const pod = stored(f);
  assert.equal(pod.metadata.generation, 1);
  assert.equal(pod.status?.allocatedResources, undefined);
});
