/**
 * The lane's two nodes let an eviction reschedule: a Deployment's pod evicted through the Eviction
 * API (policy/v1) from a cordoned node is replaced by its ReplicaSet and the replacement runs on
 * the other node. The path Tailor's updater takes for Recreate and the in-place fallbacks.
 * Runs with `npm run test:real-cluster` (as root), not with `npm test`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { BUSYBOX_IMAGE, containerId, dropNamespace, freshNamespace, laneKubeConfig, waitFor } from './lane-cluster.ts';

const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const kc = laneKubeConfig();
const core = kc.makeApiClient(k8s.CoreV1Api);
const apps = kc.makeApiClient(k8s.AppsV1Api);
let namespace = '';
let cordoned: string | undefined;

before(async () => {
  namespace = await freshNamespace(core, 'lane-eviction');
});
after(async () => {
  if (cordoned) await core.patchNode({ name: cordoned, body: { spec: { unschedulable: false } } }, MERGE);
  if (namespace) await dropNamespace(core, namespace);
});

test('an evicted pod of a Deployment is replaced on the other node', async () => {
  const nodes = (await core.listNode()).items.map((n) => n.metadata!.name!);
  assert.ok(nodes.length >= 2, `the lane needs two nodes for this (TAILOR_CLUSTER_NODES), has ${nodes.join(', ')}`);
  const labels = { app: 'moved' };
  await apps.createNamespacedDeployment({
    namespace,
    body: {
      metadata: { name: 'moved' },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            terminationGracePeriodSeconds: 0,
            containers: [
              {
                name: 'app',
                image: BUSYBOX_IMAGE,
                imagePullPolicy: 'Never',
                command: ['sleep', '3600'],
                resources: { requests: { cpu: '50m', memory: '16Mi' }, limits: { cpu: '50m', memory: '16Mi' } },
              },
            ],
          },
        },
      },
    },
  });
  const running = (): Promise<k8s.V1Pod[]> =>
    core
      .listNamespacedPod({ namespace, labelSelector: 'app=moved' })
      .then((l) => l.items.filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp && containerId(p, 'app')));
  const first = await waitFor('the first pod Running', 120_000, async () => (await running())[0]);
  const from = first.spec!.nodeName!;

  cordoned = from;
  await core.patchNode({ name: from, body: { spec: { unschedulable: true } } }, MERGE);
  await core.createNamespacedPodEviction({
    namespace,
    name: first.metadata!.name!,
    body: {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: first.metadata!.name!, namespace },
      deleteOptions: { preconditions: { uid: first.metadata!.uid! } },
    },
  });

  const replacement = await waitFor('the replacement Running', 120_000, async () => (await running()).find((p) => p.metadata!.uid !== first.metadata!.uid));
  assert.notEqual(replacement.spec!.nodeName, from, 'placed away from the cordoned node');
  assert.ok(nodes.includes(replacement.spec!.nodeName!));
  await waitFor('the evicted pod gone', 60_000, async () =>
    core.readNamespacedPod({ namespace, name: first.metadata!.name! }).then(
      () => undefined,
      () => true,
    ),
  );
});
