import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startCluster } from 'kube-sim/test/e2e/cluster-fixture';
import { spawnTailor } from '../support/tailor-process.ts';
import { createDeployment, podsOf, until, VPA_GROUP, VPA_KEY } from './webhook-fixture.ts';

/** A port that was free a moment ago (the webhook URL must name its port before it listens). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

test('tailor run --components admission serves the webhook, registers it and mutates pods; SIGTERM stops it', async (t) => {
  const f = await startCluster('1.35');
  t.after(() => f.close());
  const dir = mkdtempSync(join(tmpdir(), 'tailor-run-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  await f.sim.server.writeKubeconfig(kubeconfig);
  await f.core.createNamespace({ body: { metadata: { name: 'tailor' } } });
  await f.core.createNamespace({ body: { metadata: { name: 'shop' } } });

  const port = await freePort();
  const tailor = spawnTailor(
    t,
    [
      'run',
      '--components',
      'admission',
      '--kubeconfig',
      kubeconfig,
      '--admission-address',
      '127.0.0.1',
      '--admission-port',
      String(port),
      '--admission-webhook-url',
      `https://127.0.0.1:${port}`,
      '--metrics-address',
      '127.0.0.1',
      '--metrics-port',
      '0',
      '--log-level',
      'info',
    ],
    { env: { PATH: process.env['PATH'] ?? '', HOME: '/nonexistent' } },
  );

  const kc = new k8s.KubeConfig();
  kc.loadFromString(f.sim.server.kubeconfig());
  const admission = kc.makeApiClient(k8s.AdmissionregistrationV1Api);
  await until(
    async () => (await admission.listMutatingWebhookConfiguration()).items.length === 1,
    90_000,
    () => `webhook registered (stderr: ${tailor.stderr()})`,
  );
  await until(() => tailor.stderr().includes('admission webhook listening'), 30_000, 'listening log line');

  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  await custom.createNamespacedCustomObject({
    ...VPA_GROUP,
    namespace: 'shop',
    body: {
      apiVersion: 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      metadata: { name: 'web-vpa' },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, updatePolicy: { updateMode: 'Initial' } },
    },
  });
  f.sim.server.store.mutate(VPA_KEY, 'shop', 'web-vpa', (d) => {
    (d as { status?: unknown }).status = { recommendation: { containerRecommendations: [{ containerName: 'app', target: { cpu: '321m' } }] } };
  });
  // The child's watch cache learns the status asynchronously; create pods until one has it.
  await createDeployment(f, 'shop', 'web', 1, { requests: { cpu: '100m' } });
  await until(
    async () => {
      await f.tick(1000);
      const pods = await podsOf(f, 'shop', 'web');
      if (pods[0]?.spec?.containers[0]?.resources?.requests?.cpu === '321m') return true;
      for (const p of pods) await f.core.deleteNamespacedPod({ namespace: 'shop', name: p.metadata!.name! });
      return false;
    },
    60_000,
    'a pod created with the recommendation',
  );
  // The webhook logs the outcome after it has answered, and the line then crosses a pipe: the
  // pod can be back before the line is, so wait for it (a loaded machine widens that gap).
  const patchedLine = /"component":"admission".*"outcome":"patched".*resources set: VPA web-vpa: app: cpu request 100m -> 321m/;
  await until(
    () => patchedLine.test(tailor.stderr()),
    30_000,
    () => `the patched log line (stderr: ${tailor.stderr()})`,
  );

  tailor.child.kill('SIGTERM');
  assert.equal(await tailor.exited, 0);
});
