/**
 * The Infeasible fallback with Tailor's admission webhook registered, on kube-sim 1.32 (feature
 * gate on), 1.33 and 1.35: a pod on a 2-cpu node asked to grow to 3 cpu cannot be resized there
 * (Infeasible), so the updater evicts it (InPlaceOrRecreate); the Deployment's replacement is
 * created from the unchanged template (1500m), the webhook writes the VPA's recommendation into it
 * (3 cpu), and the scheduler places it on the 8-cpu node, where it runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { AdmissionWebhook } from '../../../src/admission/admission-webhook.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { loopbackWebhookOptions, until } from '../../admission/webhook-fixture.ts';
import { createVpa, deployment, podsOf, startUpdaterFixture, summary } from './updater-fixture.ts';

const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x)) as unknown;
const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

for (const version of ['1.32', '1.33', '1.35'] as const) {
  test(`updater e2e ${version} with the admission webhook: an Infeasible resize falls back to eviction and the webhook gives the new pod the recommendation, on a node where it fits`, async (t) => {
    const f = await startUpdaterFixture(version, [
      { cpu: '2', memory: '8Gi' },
      { cpu: '8', memory: '16Gi' },
    ]);
    t.after(() => f.close());
    await f.core.createNamespace({ body: { metadata: { name: 'tailor' } } });
    const registry = new Registry();
    const webhook = new AdmissionWebhook(
      f.kc,
      silentLogger(),
      registry,
      loopbackWebhookOptions({ mode: 'self-signed', caSecretName: 'tailor-webhook-ca' }, () => f.sim.cluster.clock.now()),
    );
    t.after(() => webhook.stop());
    await webhook.start();
    await until(() => webhook.ready() === undefined, 5000, 'webhook ready');

    // The pod starts on the small node (the big one is cordoned until then).
    await f.core.patchNode({ name: 'node-2', body: { spec: { unschedulable: true } } }, MERGE);
    const guaranteed = { requests: { cpu: '1500m', memory: '256Mi' }, limits: { cpu: '1500m', memory: '256Mi' } };
    await f.apps.createNamespacedDeployment({
      namespace: 'default',
      body: deployment('web', 1, [{ name: 'app', image: 'nginx:1.27', resources: guaranteed }]),
    });
    await f.tick(2000);
    const [before] = await podsOf(f, 'web');
    assert.equal(before!.spec!.nodeName, 'node-1');
    await f.core.patchNode({ name: 'node-2', body: { spec: { unschedulable: false } } }, MERGE);

    await createVpa(
      f,
      'web',
      'InPlaceOrRecreate',
      [{ containerName: 'app', target: { cpu: '3', memory: '256Mi' }, lowerBound: { cpu: '2500m', memory: '256Mi' } }],
      { minReplicas: 1 },
    );
    await until(
      () => webhook.view.namespaceView('default').vpas.some((v) => v.valid?.status?.recommendation !== undefined),
      5000,
      "the recommendation in the webhook's cache",
    );
    assert.deepEqual(summary(await f.loop()), ['web ResizeInPlace OutsideBounds']);
    await f.tick(0);
    const fallback = await f.loop();
    assert.deepEqual(summary(fallback), ['web Evict FallbackInfeasible']);
    assert.deepEqual(
      fallback.results.map((r) => r.outcome),
      ['applied'],
    );
    await f.tick(2000);
    await f.tick(2000);

    const after = await podsOf(f, 'web');
    assert.equal(after.length, 1);
    const pod = after[0]!;
    assert.notEqual(pod.metadata!.uid, before!.metadata!.uid, 'a new pod');
    assert.equal(pod.status!.phase, 'Running');
    assert.equal(pod.spec!.nodeName, 'node-2', 'placed where it fits');
    // From the webhook: the template still says 1500m.
    const template = await f.apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
    assert.equal(template.spec!.template.spec!.containers[0]!.resources!.requests!.cpu, '1500m');
    assert.deepEqual(plain(pod.spec!.containers[0]!.resources), { requests: { cpu: '3', memory: '256Mi' }, limits: { cpu: '3', memory: '256Mi' } });
    assert.equal(pod.metadata!.annotations!['tailor.dev/vpa'], 'web');
    assert.equal(pod.metadata!.annotations!['tailor.dev/resources-changed'], 'app: cpu request 1500m -> 3, cpu limit 1500m -> 3');
    assert.equal(pod.status!.qosClass, 'Guaranteed');
    const reviews = (await registry.getSingleMetric('tailor_admission_reviews_total')!.get()).values;
    assert.equal(reviews.find((v) => v.labels.webhook === 'mutate-pods' && v.labels.outcome === 'patched')?.value, 1, 'exactly the replacement was patched');
    // Nothing else to do: the new pod already runs with the recommendation.
    await f.tick(1000);
    assert.deepEqual(summary(await f.loop()), ['web Skip WithinBounds']);
  });
}
