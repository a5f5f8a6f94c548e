import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster, appPod, apiFailure, resizeOps, JSON_PATCH, type ClusterFixture } from './cluster-fixture.ts';
import type { V1Pod } from '@kubernetes/client-node';

const RES = { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } };
const cond = (pod: V1Pod, type: string) => pod.status?.conditions?.find((c) => c.type === type);

async function runningPod(f: ClusterFixture, name: string, resources = RES): Promise<void> {
  await f.core.createNamespacedPod({ namespace: 'default', body: appPod(name, resources) });
  await f.tick(1000);
}

async function resize(f: ClusterFixture, name: string, cpu: string, memory = '256Mi'): Promise<unknown> {
  try {
    await f.core.patchNamespacedPodResize(
      { namespace: 'default', name, body: resizeOps({ requests: { cpu, memory }, limits: { cpu: '4', memory: memory === '256Mi' ? '512Mi' : '6Gi' } }) },
      JSON_PATCH,
    );
    return undefined;
  } catch (err) {
    return err;
  }
}

for (const version of ['1.36', '1.37'] as const) {
  test(`e2e ${version}: a resize beyond the node's allocatable is refused at admission (403, cause NodeCapacity); the pod is untouched`, async (t) => {
    const f = await startCluster(version, [{ cpu: '2', memory: '4Gi' }]);
    t.after(() => f.close());
    await runningPod(f, 'web');
    const before = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
    const failure = apiFailure(await resize(f, 'web', '3'));
    assert.equal(failure.code, 403);
    assert.equal(failure.status.reason, 'Forbidden');
    assert.equal(failure.status.message, `pods "web" is forbidden: node didn't have enough allocatable resources: cpu, requested: 3000, allocatable: 2000`);
    assert.deepEqual(failure.status.details?.causes, [{ reason: 'NodeCapacity' }]);
    await f.tick(0);
    const after = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
    assert.equal(after.metadata?.generation, before.metadata?.generation, 'a refused resize does not bump the generation');
    assert.equal(cond(after, 'PodResizePending'), undefined, 'the kubelet never sees it: no Infeasible condition');
    assert.equal(after.spec?.containers[0]?.resources?.requests?.cpu, '500m');

    const both = apiFailure(await resize(f, 'web', '3', '5Gi'));
    assert.equal(
      both.status.message,
      `pods "web" is forbidden: node didn't have enough allocatable resources: cpu, requested: 3000, allocatable: 2000; memory, requested: 5368709120, allocatable: 4294967296`,
    );
  });

  test(`e2e ${version}: a resize within the allocatable but not beside the other pods is still Deferred by the kubelet`, async (t) => {
    const f = await startCluster(version, [{ cpu: '2', memory: '4Gi' }]);
    t.after(() => f.close());
    await runningPod(f, 'web');
    await runningPod(f, 'other', { requests: { cpu: '1', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } });
    assert.equal(await resize(f, 'web', '1500m'), undefined);
    await f.tick(0);
    const pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
    assert.equal(cond(pod, 'PodResizePending')?.reason, 'Deferred');
  });
}

test('e2e 1.35: the same resize beyond the allocatable is accepted and marked Infeasible by the kubelet', async (t) => {
  const f = await startCluster('1.35', [{ cpu: '2', memory: '4Gi' }]);
  t.after(() => f.close());
  await runningPod(f, 'web');
  assert.equal(await resize(f, 'web', '3'), undefined);
  await f.tick(0);
  const pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'web' });
  assert.equal(cond(pod, 'PodResizePending')?.reason, 'Infeasible');
});
