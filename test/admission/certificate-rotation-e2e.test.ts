import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import * as k8s from '@kubernetes/client-node';
import { createCa, issueServingCertificate, type CaPem } from 'kube-basics/self-signed-certificates';
import { T0 } from 'kube-sim/test/e2e/cluster-fixture';
import { createDeployment, createVpa, podsOf, recommend, startWebhookCluster, until } from './webhook-fixture.ts';

/** The SHA-256 fingerprint of the certificate the server presents. */
function servedFingerprint(port: number, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca, servername: undefined, minVersion: 'TLSv1.2' }, () => {
      const fingerprint = socket.getPeerX509Certificate()?.fingerprint256 ?? '';
      socket.end();
      resolve(fingerprint);
    });
    socket.on('error', reject);
  });
}

function writePair(dir: string, ca: CaPem): string {
  const serving = issueServingCertificate(ca, ['127.0.0.1'], T0);
  writeFileSync(join(dir, 'ca.crt'), ca.cert);
  writeFileSync(join(dir, 'tls.key'), serving.key);
  writeFileSync(join(dir, 'tls.crt'), serving.cert);
  return new X509Certificate(serving.cert).fingerprint256;
}

test('certificates from files: a rotation to a new CA is served and published, and kube-sim keeps calling the webhook', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-rotation-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const ca1 = createCa('ca-1', T0);
  writePair(dir, ca1);
  const f = await startWebhookCluster({
    mode: 'files',
    certFile: join(dir, 'tls.crt'),
    keyFile: join(dir, 'tls.key'),
    caFile: join(dir, 'ca.crt'),
    pollIntervalMs: 200,
  });
  t.after(() => f.close());
  await f.core.createNamespace({ body: { metadata: { name: 'shop' } } });
  await createVpa(f, 'shop', 'web-vpa', 'web');
  await recommend(f, 'shop', 'web-vpa', { app: { cpu: '250m' } });
  await createDeployment(f, 'shop', 'web', 1, { requests: { cpu: '100m' } });
  await f.tick(1000);
  assert.equal((await podsOf(f, 'shop', 'web'))[0]?.spec?.containers[0]?.resources?.requests?.cpu, '250m');

  const ca2 = createCa('ca-2', T0);
  const fingerprint = writePair(dir, ca2);
  const port = f.webhook.port!;
  await until(async () => (await servedFingerprint(port, ca2.cert).catch(() => '')) === fingerprint, 5000, 'the new certificate served');
  const admission = f.kubeConfig.makeApiClient(k8s.AdmissionregistrationV1Api);
  const caBundle = Buffer.from(ca2.cert).toString('base64');
  await until(
    async () => (await admission.readMutatingWebhookConfiguration({ name: 'tailor' })).webhooks?.[0]?.clientConfig.caBundle === caBundle,
    5000,
    'the new caBundle published',
  );

  await f.apps.patchNamespacedDeploymentScale(
    { namespace: 'shop', name: 'web', body: { spec: { replicas: 2 } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  await f.tick(1000);
  const cpus = (await podsOf(f, 'shop', 'web')).map((p) => p.spec?.containers[0]?.resources?.requests?.cpu);
  assert.deepEqual(cpus, ['250m', '250m']);
  const reloads = (await f.registry.getSingleMetric('tailor_admission_certificate_reloads_total')!.get()).values.find((v) => v.labels.outcome === 'ok')?.value;
  assert.ok((reloads ?? 0) >= 1);
});
