/**
 * Least privilege, checked by the real apiserver's RBAC: with the manifests' updater role
 * (manifests/base: namespace, service accounts, rbac-updater), the updater's service account may
 * patch `pods/resize` and gets 403 on `patch pods`. It authenticates with a real token from the
 * TokenRequest API, as the updater's pod would.
 * Runs with `npm run test:real-cluster` (as root), not with `npm test`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { BUSYBOX_IMAGE, containerId, dropNamespace, freshNamespace, laneKubeConfig, waitFor } from './lane-cluster.ts';

const STRATEGIC = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch);
const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const admin = laneKubeConfig();
const core = admin.makeApiClient(k8s.CoreV1Api);
let namespace = '';

async function applyManifest(path: string): Promise<void> {
  const objects = admin.makeApiClient(k8s.KubernetesObjectApi);
  for (const spec of k8s.loadAllYaml(readFileSync(path, 'utf8')) as k8s.KubernetesObject[]) {
    await objects.create(spec).catch((error: unknown) => {
      if ((error as { code?: number }).code !== 409) throw error;
    });
  }
}

/** A KubeConfig for the lane's cluster that authenticates as `namespace/name` with a fresh token. */
async function serviceAccountConfig(ns: string, name: string): Promise<k8s.KubeConfig> {
  const request = await core.createNamespacedServiceAccountToken({ namespace: ns, name, body: { spec: { audiences: [], expirationSeconds: 600 } } });
  const cluster = admin.getCurrentCluster()!;
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [cluster],
    users: [{ name, token: request.status!.token }],
    contexts: [{ name, cluster: cluster.name, user: name }],
    currentContext: name,
  });
  return kc;
}

before(async () => {
  for (const file of ['namespace', 'service-accounts', 'rbac-updater']) await applyManifest(`manifests/base/${file}.yaml`);
  namespace = await freshNamespace(core, 'lane-rbac');
  await core.createNamespacedPod({
    namespace,
    body: {
      metadata: { name: 'web' },
      spec: {
        terminationGracePeriodSeconds: 0,
        containers: [
          {
            name: 'app',
            image: BUSYBOX_IMAGE,
            imagePullPolicy: 'Never',
            command: ['sleep', '3600'],
            resources: { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '100m', memory: '32Mi' } },
          },
        ],
      },
    },
  });
  await waitFor('pod web Running', 120_000, async () => {
    const pod = await core.readNamespacedPod({ namespace, name: 'web' });
    return pod.status?.phase === 'Running' && containerId(pod, 'app') ? true : undefined;
  });
});
after(async () => {
  if (namespace) await dropNamespace(core, namespace);
});

test("the updater's service account: patch pods/resize allowed, patch pods 403", async () => {
  const updater = (await serviceAccountConfig('tailor-system', 'tailor-updater')).makeApiClient(k8s.CoreV1Api);

  const denied = await updater.patchNamespacedPod({ namespace, name: 'web', body: { metadata: { labels: { touched: 'yes' } } } }, MERGE).then(
    () => undefined,
    (error: unknown) => error as { code?: number; body?: string },
  );
  assert.equal(denied?.code, 403, 'patch pods is forbidden');
  assert.match(denied?.body ?? '', /system:serviceaccount:tailor-system:tailor-updater.*cannot patch resource \\?"pods\\?"/);

  const resized = await updater.patchNamespacedPodResize(
    {
      namespace,
      name: 'web',
      body: {
        spec: { containers: [{ name: 'app', resources: { requests: { cpu: '150m' }, limits: { cpu: '150m' } } }] },
      },
    },
    STRATEGIC,
  );
  assert.equal(resized.spec?.containers[0]?.resources?.limits?.cpu, '150m', 'patch pods/resize is allowed');
  const unchanged = await core.readNamespacedPod({ namespace, name: 'web' });
  assert.equal(unchanged.metadata?.labels?.touched, undefined, 'the forbidden patch changed nothing');
});
