import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startCluster } from './cluster-fixture.ts';
import { startWebhookServer } from '../apiserver/webhook-server.ts';

test('pods a controller makes, first and after an eviction, go through the mutating webhook over HTTPS', async (t) => {
  const f = await startCluster('1.35');
  t.after(() => f.close());
  const hooks = await startWebhookServer();
  t.after(() => hooks.close());
  const kc = new k8s.KubeConfig();
  kc.loadFromString(f.sim.server.kubeconfig());
  await kc.makeApiClient(k8s.AdmissionregistrationV1Api).createMutatingWebhookConfiguration({
    body: {
      metadata: { name: 'label-pods' },
      webhooks: [
        {
          name: 'label.hooks.test',
          clientConfig: { url: hooks.url('/label'), caBundle: hooks.caBundle },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    },
  });
  await f.apps.createNamespacedDeployment({
    namespace: 'default',
    body: {
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
      },
    },
  });
  // Each pod's create waits for a real HTTPS call to the webhook: under load that can outlast one
  // tick, so step simulated time until both pods exist (or 30 simulated seconds have passed).
  const webPods = async (ready: (p: k8s.V1Pod) => boolean) => {
    let items: k8s.V1Pod[] = [];
    for (let i = 0; i < 300; i += 1) {
      await f.tick(100);
      items = (await f.core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })).items;
      if (items.length === 2 && items.every(ready)) break;
    }
    return items;
  };
  let pods = await webPods(() => true);
  assert.equal(pods.length, 2);
  assert.ok(pods.every((p) => p.metadata?.labels?.mutated === 'yes'));
  const victim = pods[0]!.metadata!.name!;
  await f.core.createNamespacedPodEviction({
    namespace: 'default',
    name: victim,
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: victim, namespace: 'default' } },
  });
  pods = await webPods((p) => p.metadata?.name !== victim && p.status?.phase === 'Running');
  assert.equal(pods.length, 2);
  assert.ok(pods.every((p) => p.metadata?.labels?.mutated === 'yes' && p.status?.phase === 'Running'));
  const podCreates = hooks.received.filter((r) => r.request.kind.kind === 'Pod' && r.request.operation === 'CREATE');
  assert.equal(podCreates.length, 3);
});
