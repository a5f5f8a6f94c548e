/**
 * The chaos lane's API fault proxy in front of kube-sim's API server (TLS, bearer token): requests
 * pass through unchanged; with faults set, the share asked for is answered with 500, 429 or 503 as
 * Status objects; latency delays without failing; a cut ends the client's open watch.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { createCertificateAuthority } from 'kube-sim/apiserver/certificates';
import { podManifest, startSim, type SimFixture } from 'kube-sim/test/apiserver/sim-fixture';
import { startApiFaultProxy, type ApiFaultProxy } from './api-fault-proxy.ts';

let sim: SimFixture;
let proxy: ApiFaultProxy;
let core: k8s.CoreV1Api;
let kc: k8s.KubeConfig;
let draws: number[] = [];

before(async () => {
  sim = await startSim();
  const cluster = sim.kc.getCurrentCluster()!;
  const ca = createCertificateAuthority('chaos-proxy-ca');
  const serving = ca.issueServerCertificate('127.0.0.1');
  proxy = await startApiFaultProxy({
    upstream: cluster.server,
    upstreamCa: Buffer.from(cluster.caData!, 'base64').toString(),
    cert: serving.certPem,
    key: serving.keyPem,
    random: () => draws.shift() ?? 0.99,
  });
  kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'proxy', server: proxy.url, caData: Buffer.from(ca.certPem).toString('base64') }],
    users: [{ name: 'admin', token: sim.server.adminToken }],
    contexts: [{ name: 'proxy', cluster: 'proxy', user: 'admin' }],
    currentContext: 'proxy',
  });
  core = kc.makeApiClient(k8s.CoreV1Api);
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('web-1') });
});
after(async () => {
  await proxy.close();
  await sim.close();
});

test('no fault: the request and its token pass through', async () => {
  const pods = await core.listNamespacedPod({ namespace: 'default' });
  assert.deepEqual(
    pods.items.map((p) => p.metadata?.name),
    ['web-1'],
  );
  assert.equal(proxy.counts.failed, 0);
});

test('errors at the rate set: 500, 429 with Retry-After, 503, each a Status; a draw above the rate passes', async () => {
  proxy.set({ errorRate: 0.5 });
  draws = [0.1, 0.2, 0.3, 0.9];
  const codes: number[] = [];
  for (let i = 0; i < 4; i++) {
    try {
      await core.readNamespacedPod({ namespace: 'default', name: 'web-1' });
      codes.push(200);
    } catch (error) {
      codes.push((error as { code: number }).code);
      assert.match(String((error as { body?: string }).body), /"kind":"Status"/);
    }
  }
  assert.deepEqual(codes, [500, 429, 503, 200]);
  assert.equal(proxy.counts.failed, 3);
  proxy.set({ errorRate: 0, latencyMs: 50 });
  assert.equal((await core.readNamespacedPod({ namespace: 'default', name: 'web-1' })).metadata?.name, 'web-1', 'delayed, not failed');
  proxy.set({ latencyMs: 0 });
});

test('a cut ends the open watch: its done callback is called', async () => {
  const ended = new Promise<void>((done) => {
    void new k8s.Watch(kc).watch(
      '/api/v1/namespaces/default/pods',
      {},
      () => undefined,
      () => done(),
    );
  });
  // Until the watch is open through the proxy (a cut before that ends nothing).
  for (let i = 0; i < 1000 && proxy.cutWatches() === 0; i++) await new Promise((r) => setTimeout(r, 20));
  await ended;
  assert.ok(proxy.counts.cut >= 1);
});

test('a watch with nothing to report gets its headers at once (a client counts the watch started on them)', { timeout: 30_000 }, async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'quiet' } } });
  const listed = await core.listNamespacedPod({ namespace: 'quiet' });
  const events: string[] = [];
  const controller = await new k8s.Watch(kc).watch(
    '/api/v1/namespaces/quiet/pods',
    { resourceVersion: listed.metadata?.resourceVersion },
    (type) => events.push(type),
    () => undefined,
  );
  controller.abort();
  assert.deepEqual(events, []);
});
