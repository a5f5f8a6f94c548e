/**
 * Pod-level resources (`spec.resources`, KEP-2837) on the real cluster. A Deployment's pod sets
 * pod-level requests cpu 200m / memory 64Mi and limits cpu 400m / memory 128Mi, its container none;
 * its VPA (InPlace) recommends cpu 300m for the container. `tailor run --components updater`:
 * - on 1.36+ (KEP-5419, beta, on by default) resizes the pod-level values in place to the
 *   container's recommendation (cpu 300m, limit 600m in proportion): the pod cgroup's
 *   cpu.cfs_quota_us goes 40000 → 60000, same pod, same container, restartCount 0; the time from
 *   the updater's resize to the new quota is printed;
 * - on 1.35 leaves the pod as it is and says why (pod-level values are resized in place only from
 *   1.36; InPlace never evicts).
 * The recommendation is written into the VPA status by the test (the recommender is not under
 * test). Runs with `npm run test:real-cluster` (as root), not with `npm test`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import {
  containerId,
  dropNamespace,
  freshNamespace,
  guaranteedApp,
  installVpaCrd,
  laneKubeConfig,
  podCpuQuota,
  serverMinor,
  startHostUpdater,
  waitFor,
  type HostUpdater,
} from './lane-cluster.ts';

const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };
const POD_LEVEL = { requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '400m', memory: '128Mi' } };

function deployment(): k8s.V1Deployment {
  const labels = { app: 'solo' };
  const { resources: _none, ...app } = guaranteedApp();
  return {
    metadata: { name: 'solo', labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { terminationGracePeriodSeconds: 0, resources: POD_LEVEL, containers: [app] } },
    },
  };
}

describe("Tailor's updater and pod-level resources on the real cluster", () => {
  const kc = laneKubeConfig();
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const apps = kc.makeApiClient(k8s.AppsV1Api);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  let namespace = '';
  let tailor: HostUpdater | undefined;

  before(async () => {
    await installVpaCrd(kc);
    namespace = await freshNamespace(core, 'lane-pod-level');
    await apps.createNamespacedDeployment({ namespace, body: deployment() });
  });
  after(async () => {
    await tailor?.stop();
    if (namespace) await dropNamespace(core, namespace);
  });

  test('1.36+: pod-level cpu 200m/400m → 300m/600m in place (pod cgroup quota 40000 → 60000), no restart; 1.35: left alone with the reason', async () => {
    const minor = await serverMinor(kc);
    const running = await waitFor('the pod with pod-level resources Running', 120_000, async () => {
      const pods = await core.listNamespacedPod({ namespace, labelSelector: 'app=solo' });
      return pods.items.find((p) => p.status?.phase === 'Running' && containerId(p, 'app'));
    });
    const name = running.metadata!.name!;
    const id = containerId(running, 'app')!;
    assert.equal(podCpuQuota(id), 40_000, 'the pod cgroup has the pod-level cpu limit 400m');

    await custom.createNamespacedCustomObject({
      ...VPA,
      namespace,
      body: {
        apiVersion: 'autoscaling.k8s.io/v1',
        kind: 'VerticalPodAutoscaler',
        metadata: { name: 'solo' },
        spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'solo' }, updatePolicy: { updateMode: 'InPlace' } },
      },
    });
    const target = { cpu: '300m', memory: '64Mi' };
    const rec = { containerName: 'app', target, lowerBound: target, upperBound: { cpu: '400m', memory: '64Mi' }, uncappedTarget: target };
    await custom.patchNamespacedCustomObjectStatus(
      { ...VPA, namespace, name: 'solo', body: { status: { recommendation: { containerRecommendations: [rec] } } } },
      MERGE,
    );

    tailor = startHostUpdater(namespace, ['--log-level', 'debug']);
    const { alive, output: said } = tailor;

    if (minor < 36) {
      await waitFor('the updater says why it leaves the pod alone', 120_000, async () => {
        alive();
        return /"reason":"InPlaceUnsupported".*pod-level resources are resized in place only from Kubernetes 1\.36/.test(said()) ? true : undefined;
      });
      const p = await core.readNamespacedPod({ namespace, name });
      assert.deepEqual(JSON.parse(JSON.stringify(p.spec!.resources)), POD_LEVEL, `1.${minor}: the pod-level values are left as they are`);
      assert.equal(p.metadata!.uid, running.metadata!.uid, 'never evicted (InPlace)');
      assert.equal(podCpuQuota(id), 40_000);
      return;
    }

    const resized = await waitFor('the updater resizes the pod-level values', 120_000, async () => {
      alive();
      return /"action":"ResizeInPlace".*\(pod\): cpu/.test(said()) ? Date.now() : undefined;
    });
    await waitFor(
      'the pod cgroup cpu.cfs_quota_us 60000',
      120_000,
      async () => {
        alive();
        return podCpuQuota(id) === 60_000 ? true : undefined;
      },
      () => `pod quota ${podCpuQuota(id)}; tailor's last output:\n${said().slice(-2000)}`,
    );
    console.log(`1.${minor}: pod cgroup quota 60000 ${Date.now() - resized} ms after the updater's resize was logged (the lane's poll is 1 s)`);
    const last = await core.readNamespacedPod({ namespace, name });
    assert.deepEqual(JSON.parse(JSON.stringify(last.spec!.resources)), { requests: { cpu: '300m', memory: '64Mi' }, limits: { cpu: '600m', memory: '128Mi' } });
    assert.equal(last.metadata!.uid, running.metadata!.uid, 'the same pod, not a recreated one');
    assert.equal(containerId(last, 'app'), id, 'the same container');
    assert.equal(last.status!.containerStatuses![0]!.restartCount, 0);
    assert.equal(last.status!.qosClass, 'Burstable');
    assert.equal(last.spec!.containers[0]!.resources?.requests, undefined, "the container's own values are never written");
  });
});
