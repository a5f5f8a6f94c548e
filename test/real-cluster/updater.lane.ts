/**
 * Tailor's updater against the real cluster: a Deployment's pod below its VPA's lowerBound is
 * resized in place by `tailor run --components updater`, and the node's kubelet applies it to the
 * running container's cgroup with no restart; in a pod with a native sidecar (an init container
 * with `restartPolicy: Always`, as Istio's proxy) and an ordinary init container, the sidecar is
 * resized in place like a container and the init container is never touched. The VPA CRD is the one in manifests/crds; the
 * recommendation is written into the VPA status by the test (the recommender is not under test).
 * Runs with `npm run test:real-cluster` (as root), not with `npm test`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { UPDATER_FIELD_MANAGER } from '../../src/updater/pod-timing.ts';
import {
  guaranteedApp,
  containerId,
  cpuQuota,
  dropNamespace,
  freshNamespace,
  installVpaCrd,
  laneKubeConfig,
  startHostUpdater,
  waitFor,
  type HostUpdater,
} from './lane-cluster.ts';

const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };

function deployment(): k8s.V1Deployment {
  const labels = { app: 'web' };
  return {
    metadata: { name: 'web', labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: 0,
          containers: [guaranteedApp()],
        },
      },
    },
  };
}

describe("Tailor's updater resizes a pod in place on the real cluster", () => {
  const kc = laneKubeConfig();
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const apps = kc.makeApiClient(k8s.AppsV1Api);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  let namespace = '';
  let tailor: HostUpdater | undefined;

  before(async () => {
    await installVpaCrd(kc);
    namespace = await freshNamespace(core, 'lane-updater');
    await apps.createNamespacedDeployment({ namespace, body: deployment() });
  });
  after(async () => {
    await tailor?.stop();
    if (namespace) await dropNamespace(core, namespace);
  });

  /** The VPA `name` (InPlaceOrRecreate) on the Deployment of that name, with this recommendation written into its status. */
  async function installVpa(name: string, containerRecommendations: object[]): Promise<void> {
    await custom.createNamespacedCustomObject({
      ...VPA,
      namespace,
      body: {
        apiVersion: 'autoscaling.k8s.io/v1',
        kind: 'VerticalPodAutoscaler',
        metadata: { name },
        spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, updatePolicy: { updateMode: 'InPlaceOrRecreate' } },
      },
    });
    await custom.patchNamespacedCustomObjectStatus({ ...VPA, namespace, name, body: { status: { recommendation: { containerRecommendations } } } }, MERGE);
  }

  /** Waits until container `id`'s cpu.cfs_quota_us is `quota`, failing at once if Tailor exits. */
  async function waitForQuota(what: string, id: string, quota: number): Promise<void> {
    await waitFor(
      what,
      120_000,
      async () => {
        tailor!.alive();
        return cpuQuota(id) === quota ? true : undefined;
      },
      () => `quota ${cpuQuota(id)}; tailor's last output:\n${tailor!.output().slice(-2000)}`,
    );
  }

  test('a request below the lowerBound: cpu 200m → 300m in place, cgroup quota 20000 → 30000, restartCount 0', async () => {
    const running = await waitFor('the Deployment pod Running', 120_000, async () => {
      const pods = await core.listNamespacedPod({ namespace, labelSelector: 'app=web' });
      return pods.items.find((p) => p.status?.phase === 'Running' && containerId(p, 'app'));
    });
    const name = running.metadata!.name!;
    const id = containerId(running, 'app')!;
    assert.equal(cpuQuota(id), 20_000);

    const target = { cpu: '300m', memory: '64Mi' };
    await installVpa('web', [{ containerName: 'app', target, lowerBound: target, upperBound: { cpu: '400m', memory: '64Mi' }, uncappedTarget: target }]);

    tailor = startHostUpdater(namespace);

    await waitForQuota('cpu.cfs_quota_us 30000 after the updater', id, 30_000);
    const last = await waitFor('status resources cpu 300m', 60_000, async () => {
      const p = await core.readNamespacedPod({ namespace, name });
      return p.status?.containerStatuses?.[0]?.resources?.requests?.cpu === '300m' ? p : undefined;
    });
    assert.equal(last.status!.containerStatuses![0]!.restartCount, 0);
    assert.equal(containerId(last, 'app'), id, 'the same container');
    assert.equal(last.spec!.containers[0]!.resources!.limits!.cpu, '300m', 'the limit moved with the request (Guaranteed kept)');
    assert.equal(last.spec!.containers[0]!.resources!.requests!.memory, '64Mi', 'memory unchanged');
    const managers = (last.metadata!.managedFields ?? []).filter((m) => m.subresource === 'resize').map((m) => m.manager);
    assert.ok(managers.includes(UPDATER_FIELD_MANAGER), `the resize was written by Tailor's updater (resize managers: ${managers.join(', ')})`);
  });

  test('a native sidecar below its lowerBound: cpu 100m → 150m in place (quota 10000 → 15000), the ordinary init container left alone, no restart, same pod', async () => {
    assert.ok(tailor && tailor.process.exitCode === null, 'the updater of the first test is still running');
    const labels = { app: 'mesh' };
    const guaranteed = (cpu: string) => ({ requests: { cpu, memory: '32Mi' }, limits: { cpu, memory: '32Mi' } });
    const busybox = { image: guaranteedApp().image!, imagePullPolicy: 'Never' };
    await apps.createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: 'mesh', labels },
        spec: {
          replicas: 1,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: {
              terminationGracePeriodSeconds: 0,
              initContainers: [
                { name: 'setup', ...busybox, command: ['true'], resources: guaranteed('100m') },
                { name: 'proxy', ...busybox, restartPolicy: 'Always', command: ['sleep', '3600'], resources: guaranteed('100m') },
              ],
              containers: [guaranteedApp()],
            },
          },
        },
      },
    });
    const running = await waitFor('the mesh pod Running with its sidecar', 120_000, async () => {
      const pods = await core.listNamespacedPod({ namespace, labelSelector: 'app=mesh' });
      return pods.items.find((p) => p.status?.phase === 'Running' && containerId(p, 'app') && containerId(p, 'proxy'));
    });
    const name = running.metadata!.name!;
    const proxyId = containerId(running, 'proxy')!;
    assert.equal(cpuQuota(proxyId), 10_000);

    const rec = (containerName: string, cpu: string) => {
      const target = { cpu, memory: '32Mi' };
      return { containerName, target, lowerBound: target, upperBound: target, uncappedTarget: target };
    };
    // app within its bounds; the sidecar and the init container below theirs.
    await installVpa('mesh', [rec('app', '200m'), rec('proxy', '150m'), rec('setup', '300m')]);
    await waitForQuota("the sidecar's cpu.cfs_quota_us 15000 after the updater", proxyId, 15_000);
    const last = await waitFor('the sidecar status resources cpu 150m', 60_000, async () => {
      const p = await core.readNamespacedPod({ namespace, name });
      return p.status?.initContainerStatuses?.find((s) => s.name === 'proxy')?.resources?.requests?.cpu === '150m' ? p : undefined;
    });
    assert.equal(last.metadata!.uid, running.metadata!.uid, 'the same pod, not a recreated one');
    const proxy = last.status!.initContainerStatuses!.find((s) => s.name === 'proxy')!;
    assert.equal(proxy.restartCount, 0);
    assert.equal(containerId(last, 'proxy'), proxyId, 'the same sidecar container');
    const specOf = (n: string) => last.spec!.initContainers!.find((c) => c.name === n)!.resources!;
    assert.equal(specOf('proxy').limits!.cpu, '150m', 'the limit moved with the request (Guaranteed kept)');
    assert.deepEqual(JSON.parse(JSON.stringify(specOf('setup'))), guaranteed('100m'), 'the ordinary init container is never resized');
    assert.equal(last.spec!.containers[0]!.resources!.requests!.cpu, '200m', 'the app within its bounds is left alone');
    assert.equal(last.status!.containerStatuses![0]!.restartCount, 0);
  });
});
