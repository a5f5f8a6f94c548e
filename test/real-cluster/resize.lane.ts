/**
 * The lane's first proof: on the real cluster (kube-apiserver + kubelet + containerd + runc), a CPU
 * resize through `pods/resize` changes the running container's cgroup in place, and a resize the
 * node cannot hold is refused (Infeasible from the kubelet up to 1.35, 403 at admission since 1.36)
 * and leaves the cgroup alone.
 * Runs with `npm run test:real-cluster` (as root), not with `npm test`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { guaranteedApp, containerId, cpuQuota, dropNamespace, freshNamespace, laneKubeConfig, serverMinor, waitFor } from './lane-cluster.ts';

const STRATEGIC = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch);

function guaranteedPod(name: string, node: string): k8s.V1Pod {
  return {
    metadata: { name },
    spec: {
      nodeSelector: { 'kubernetes.io/hostname': node },
      terminationGracePeriodSeconds: 0,
      containers: [guaranteedApp()],
    },
  };
}

function cpuPatch(cpu: string): object {
  return { spec: { containers: [{ name: 'app', resources: { requests: { cpu }, limits: { cpu } } }] } };
}

const core = laneKubeConfig().makeApiClient(k8s.CoreV1Api);
const minor = await serverMinor();
// Every node of the lane (one containerd and kubelet each) is checked, the pod pinned to it.
const nodes = (await core.listNode()).items.map((n) => n.metadata!.name!).sort();

for (const node of nodes)
  describe(`a CPU resize through pods/resize on the real cluster, node ${node}`, () => {
    let namespace = '';
    let last: k8s.V1Pod | undefined;
    const read = async (): Promise<k8s.V1Pod> => (last = await core.readNamespacedPod({ namespace, name: 'web' }));
    const seen = (): string =>
      JSON.stringify({
        resize: last?.status?.conditions?.filter((c) => c.type.startsWith('PodResize')),
        containers: last?.status?.containerStatuses?.map((s) => ({ resources: s.resources, restartCount: s.restartCount })),
      });

    before(async () => {
      namespace = await freshNamespace(core, 'lane-resize');
      await core.createNamespacedPod({ namespace, body: guaranteedPod('web', node) });
      await waitFor(
        'pod web Running',
        120_000,
        async () => {
          const pod = await read();
          return pod.status?.phase === 'Running' && containerId(pod, 'app') ? pod : undefined;
        },
        seen,
      );
    });
    after(async () => {
      if (namespace) await dropNamespace(core, namespace);
    });

    test('cpu 200m → 300m: the container cgroup quota goes 20000 → 30000 in place, no restart', async () => {
      const pod = await read();
      assert.equal(pod.spec?.nodeName, node);
      const id = containerId(pod, 'app')!;
      assert.equal(cpuQuota(id), 20_000, 'the quota of a 200m limit (100 ms period)');

      await core.patchNamespacedPodResize({ namespace, name: 'web', body: cpuPatch('300m') }, STRATEGIC);

      await waitFor(
        'cpu.cfs_quota_us 30000',
        60_000,
        async () => (cpuQuota(id) === 30_000 ? true : undefined),
        () => `quota ${cpuQuota(id)}`,
      );
      const resized = await waitFor(
        'status resources cpu 300m',
        60_000,
        async () => {
          const p = await read();
          return p.status?.containerStatuses?.[0]?.resources?.limits?.cpu === '300m' ? p : undefined;
        },
        seen,
      );
      const status = resized.status!.containerStatuses![0]!;
      assert.equal(status.restartCount, 0);
      assert.equal(containerId(resized, 'app'), id, 'the same container, not a new one');
      assert.equal(status.resources?.requests?.cpu, '300m');
      assert.equal(
        resized.status?.conditions?.find((c) => c.type === 'PodResizeInProgress'),
        undefined,
        'the resize is finished',
      );
    });

    test('cpu → 1000 cores: refused at admission on 1.36+ (403, cause NodeCapacity), PodResizePending/Infeasible before; the cgroup stays as it was', async () => {
      const pod = await read();
      const id = containerId(pod, 'app')!;
      const before = cpuQuota(id);
      const answer = await core.patchNamespacedPodResize({ namespace, name: 'web', body: cpuPatch('1000') }, STRATEGIC).then(
        () => undefined,
        (err: { code?: number; body?: string }) => err,
      );
      if (minor >= 36) {
        // kubernetes/kubernetes#136043: the PodResizeValidator admission plugin.
        assert.equal(answer?.code, 403, 'refused at admission');
        const status = JSON.parse(answer.body ?? '{}') as { reason?: string; message?: string; details?: { causes?: { reason?: string }[] } };
        assert.equal(status.reason, 'Forbidden');
        assert.match(
          status.message ?? '',
          /^pods "web" is forbidden: node didn't have enough allocatable resources: cpu, requested: 1000000, allocatable: \d+$/,
        );
        assert.deepEqual(status.details?.causes, [{ reason: 'NodeCapacity' }]);
        const after = await read();
        assert.equal(after.metadata?.generation, pod.metadata?.generation, 'a refused resize leaves the generation');
        assert.equal(
          after.status?.conditions?.find((c) => c.type === 'PodResizePending'),
          undefined,
        );
      } else {
        assert.equal(answer, undefined, 'accepted by the API server up to 1.35');
        const pending = await waitFor(
          'PodResizePending',
          60_000,
          async () => (await read()).status?.conditions?.find((c) => c.type === 'PodResizePending'),
          seen,
        );
        assert.equal(pending.reason, 'Infeasible');
        assert.match(pending.message ?? '', /^Node didn't have enough capacity: cpu, requested: 1000000, capacity: \d+$/);
      }
      assert.equal(cpuQuota(id), before);
      assert.equal((await read()).status?.containerStatuses?.[0]?.restartCount, 0);
    });
  });
