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
  const webhook = new AdmissionWebhook(
    f.kc,
    silentLogger(),
    new Registry(),
    loopbackWebhookOptions({ mode: 'self-signed', caSecretName: 'tailor-webhook-ca' }, () => f.sim.cluster.clock.now()),
  );
  t.after(() => webhook.stop());
  await webhook.start();
  await until(() => webhook.ready() === undefined, 5000, 'webhook ready');

  const steady = { cpu: '500m', memory: '256Mi' };
  const annotations = { 'tailor.dev/startup-cpu-boost': '2x', 'tailor.dev/startup-cpu-boost-duration': 'ready+30s' };
  const rec = (name: string) => [
    { containerName: name, target: steady, lowerBound: { cpu: '400m', memory: '200Mi' }, upperBound: { cpu: '600m', memory: '300Mi' } },
  ];
  await createVpa(f, 'boot', 'InPlaceOrRecreate', rec('app'), { annotations, minReplicas: 1 });
  await createVpa(f, 'rigid', 'InPlaceOrRecreate', rec('app'), { annotations, minReplicas: 1 });
  await until(
    () => webhook.view.namespaceView('default').vpas.filter((v) => v.valid?.status?.recommendation !== undefined).length === 2,
    5000,
    "the VPAs in the webhook's cache",
  );

  await f.apps.createNamespacedDeployment({
    namespace: 'default',
    body: deployment('boot', 1, [{ name: 'app', image: 'nginx:1.27', resources: { requests: steady, limits: steady } }]),
  });
  const rigid = [
    {
      name: 'app',
      image: 'nginx:1.27',
      resources: { requests: steady, limits: steady },
      resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }],
    },
  ];
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('rigid', 1, rigid) });
  await f.tick(2000);

  const [boosted] = await podsOf(f, 'boot');
  assert.deepEqual(plain(boosted!.spec!.containers[0]!.resources), { requests: { cpu: '1', memory: '256Mi' }, limits: { cpu: '1', memory: '256Mi' } });
  assert.equal(boosted!.status!.qosClass, 'Guaranteed');
  assert.equal(
    boosted!.metadata!.annotations!['tailor.dev/startup-cpu-boost-record'],
    '{"until":"ready+30s","containers":{"app":{"request":500,"limit":500}}}',
  );
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

/** A Deployment whose pods need `work` CPU-seconds before they turn Ready (kube-sim's start-up work). */
function slowStarter(name: string, work: number, resources: { requests: Record<string, string>; limits: Record<string, string> }) {
  const d = deployment(name, 1, [{ name: 'app', image: 'jvm-app:1', resources }]);
  d.spec!.template.metadata!.annotations = { 'tailor.dev/sim-startup-cpu-seconds': String(work) };
  return d;
}

test('startup boost e2e 1.35: what it buys: time to Ready of a CPU-heavy start-up (30 CPU-seconds at 500m) with and without a 3x boost', async (t) => {
  const f = await startUpdaterFixture('1.35', [{ cpu: '8', memory: '16Gi' }]);
  t.after(() => f.close());
  await f.core.createNamespace({ body: { metadata: { name: 'tailor' } } });
  const webhook = new AdmissionWebhook(
    f.kc,
    silentLogger(),
    new Registry(),
    loopbackWebhookOptions({ mode: 'self-signed', caSecretName: 'tailor-webhook-ca' }, () => f.sim.cluster.clock.now()),
  );
  t.after(() => webhook.stop());
  await webhook.start();
  await until(() => webhook.ready() === undefined, 5000, 'webhook ready');
  const steady = { cpu: '500m', memory: '512Mi' };
  const rec = [{ containerName: 'app', target: steady, lowerBound: { cpu: '400m', memory: '400Mi' }, upperBound: { cpu: '600m', memory: '600Mi' } }];
  await createVpa(f, 'cold', 'InPlaceOrRecreate', rec, { minReplicas: 1 });
  await createVpa(f, 'warm', 'InPlaceOrRecreate', rec, { minReplicas: 1, annotations: { 'tailor.dev/startup-cpu-boost': '3x' } });
  await until(
    () => webhook.view.namespaceView('default').vpas.filter((v) => v.valid?.status?.recommendation !== undefined).length === 2,
    5000,
    "the VPAs in the webhook's cache",
  );

  const guaranteed = { requests: steady, limits: steady };
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: slowStarter('cold', 30, guaranteed) });
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: slowStarter('warm', 30, guaranteed) });
  await f.tick(1000); // scheduled and started
  const started = f.sim.cluster.clock.now();
  const readyAt = new Map<string, number>();
  for (let s = 0; s < 75 && readyAt.size < 2; s++) {
    await f.tick(1000);
    for (const app of ['cold', 'warm']) {
      const [p] = await podsOf(f, app);
      const ready = p?.status?.conditions?.find((c) => c.type === 'Ready');
      if (ready?.status === 'True' && !readyAt.has(app))
        readyAt.set(app, new Date(ready.lastTransitionTime as unknown as string).getTime() - new Date(p!.status!.startTime as unknown as string).getTime());
    }
    if (readyAt.has('warm') && s % 10 === 0) await f.loop(); // the updater runs now and then
  }
  const cold = readyAt.get('cold')! / 1000;
  const warm = readyAt.get('warm')! / 1000;
  t.diagnostic(`time to Ready: without boost ${cold} s, with 3x boost ${warm} s (started at ${new Date(started).toISOString()})`);
  // 30 CPU-seconds at 0.5 core = 60 s; at 1.5 cores = 20 s (the Ready time has whole seconds)
  assert.ok(cold >= 59 && cold <= 61, `cold ${cold} s`);
  assert.ok(warm >= 19 && warm <= 21, `warm ${warm} s`);

  // Ready: the boost (until ready) is given back in place
  const back = await f.loop();
  assert.ok(
    summary(back).includes('warm ResizeInPlace StartupBoostEnded') || (await podsOf(f, 'warm'))[0]!.spec!.containers[0]!.resources!.requests!.cpu === '500m',
    summary(back).join(', '),
  );
  await f.tick(6000);
  const [warmPod] = await podsOf(f, 'warm');
  assert.equal(warmPod!.spec!.containers[0]!.resources!.requests!.cpu, '500m');
  assert.equal(warmPod!.spec!.containers[0]!.resources!.limits!.cpu, '500m');
});
