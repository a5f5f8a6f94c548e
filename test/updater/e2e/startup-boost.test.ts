/**
 * Start-up CPU boost end to end on kube-sim 1.35 with Tailor's admission webhook: a VPA asks for
 * `2x` until Ready + 30 s; a new Guaranteed pod is created with twice its CPU (limit with request,
 * so it stays Guaranteed) and the steady values recorded; the updater waits while the boost lasts,
 * then gives the CPU back in place, restarting nothing. A container with cpu resizePolicy
 * RestartContainer is not boosted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { AdmissionWebhook } from '../../../src/admission/admission-webhook.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { loopbackWebhookOptions, until } from '../../admission/webhook-fixture.ts';
import { createVpa, deployment, podsOf, startUpdaterFixture, summary } from './updater-fixture.ts';

const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x)) as unknown;

test('startup boost e2e 1.35: the webhook boosts new pods, the updater gives the CPU back in place after Ready + 30 s', async (t) => {
  const f = await startUpdaterFixture('1.35', [{ cpu: '8', memory: '16Gi' }]);
  t.after(() => f.close());
  await f.core.createNamespace({ body: { metadata: { name: 'tailor' } } });
  const webhook = new AdmissionWebhook(f.kc, silentLogger(), new Registry(), loopbackWebhookOptions({ mode: 'self-signed', caSecretName: 'tailor-webhook-ca' }, () => f.sim.cluster.clock.now()));
  t.after(() => webhook.stop());
  await webhook.start();
  await until(() => webhook.ready() === undefined, 5000, 'webhook ready');

  const steady = { cpu: '500m', memory: '256Mi' };
  const annotations = { 'tailor.dev/startup-cpu-boost': '2x', 'tailor.dev/startup-cpu-boost-duration': 'ready+30s' };
  const rec = (name: string) => [{ containerName: name, target: steady, lowerBound: { cpu: '400m', memory: '200Mi' }, upperBound: { cpu: '600m', memory: '300Mi' } }];
  await createVpa(f, 'boot', 'InPlaceOrRecreate', rec('app'), { annotations, minReplicas: 1 });
  await createVpa(f, 'rigid', 'InPlaceOrRecreate', rec('app'), { annotations, minReplicas: 1 });
  await until(() => webhook.view.namespaceView('default').vpas.filter((v) => v.valid?.status?.recommendation !== undefined).length === 2, 5000, "the VPAs in the webhook's cache");

  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('boot', 1, [{ name: 'app', image: 'nginx:1.27', resources: { requests: steady, limits: steady } }]) });
  const rigid = [{ name: 'app', image: 'nginx:1.27', resources: { requests: steady, limits: steady }, resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] }];
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('rigid', 1, rigid) });
  await f.tick(2000);

  const [boosted] = await podsOf(f, 'boot');
  assert.deepEqual(plain(boosted!.spec!.containers[0]!.resources), { requests: { cpu: '1', memory: '256Mi' }, limits: { cpu: '1', memory: '256Mi' } });
  assert.equal(boosted!.status!.qosClass, 'Guaranteed');
  assert.equal(boosted!.metadata!.annotations!['tailor.dev/startup-cpu-boost-record'], '{"until":"ready+30s","containers":{"app":{"request":500,"limit":500}}}');
  const [unboosted] = await podsOf(f, 'rigid');
  assert.equal(unboosted!.spec!.containers[0]!.resources!.requests!.cpu, '500m', 'cpu RestartContainer: not boosted');

  // Ready at once on kube-sim: the boost lasts 30 s more
  const during = await f.loop();
  assert.deepEqual(summary(during).sort(), ['boot Wait StartupBoost', 'rigid Skip WithinBounds']);
  assert.match(during.decisions.find((d) => d.reason === 'StartupBoost')!.message, /^start-up cpu boost until ready\+30s: \d+ s left$/);

  await f.tick(30_000);
  const over = await f.loop();
  assert.deepEqual(summary(over).sort(), ['boot ResizeInPlace StartupBoostEnded', 'rigid Skip WithinBounds']);
  await f.tick(6000);
  const [back] = await podsOf(f, 'boot');
  assert.deepEqual(plain(back!.spec!.containers[0]!.resources), { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
  assert.equal(back!.status!.qosClass, 'Guaranteed');
  assert.equal(back!.metadata!.uid, boosted!.metadata!.uid, 'the same pod: no eviction');
  assert.equal(back!.status!.containerStatuses![0]!.restartCount, 0, 'no restart');
  assert.deepEqual(summary(await f.loop()).sort(), ['boot Skip WithinBounds', 'rigid Skip WithinBounds']);
});
