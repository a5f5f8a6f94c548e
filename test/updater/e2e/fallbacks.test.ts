/**
 * The updater's fallbacks end to end on kube-sim 1.32 (feature gate on: the pod itself is patched), 1.33 and 1.35: an Infeasible resize (bigger than
 * the node) is followed by an eviction and the Deployment's new pod runs; a Deferred resize waits,
 * then falls back after 5 minutes; a PodDisruptionBudget's refusal (429) is retried in later loops
 * and never forced. No admission webhook is registered here, so the recreated pod gets the
 * Deployment's template values; fallback-with-webhook.test.ts runs the Infeasible fallback with the
 * webhook, where the new pod gets the recommendation on a node where it fits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { createVpa, deployment, podsOf, startUpdaterFixture, summary, webBeyondItsNode } from './updater-fixture.ts';

const guaranteed = (cpu: string) => ({ requests: { cpu, memory: '256Mi' }, limits: { cpu, memory: '256Mi' } });
const MEM = { memory: '256Mi' };

for (const version of ['1.32', '1.33', '1.35'] as const) {
  test(`updater e2e ${version}: an Infeasible resize falls back to eviction at once and the recreated pod runs`, async (t) => {
    const f = await webBeyondItsNode(t, version, 'InPlaceOrRecreate');
    const [before] = await podsOf(f, 'web');
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
    assert.notEqual(after[0]!.metadata!.uid, before!.metadata!.uid, 'a new pod');
    assert.equal(after[0]!.status!.phase, 'Running');
    assert.deepEqual(
      f.calls.filter((c) => !c.startsWith('event')).map((c) => c.split(' ')[0]),
      ['resize', 'evict'],
    );
    assert.ok(f.calls.includes('event VerticalPodAutoscaler/Evicted'));
  });

  test(`updater e2e ${version}: a Deferred resize waits, then falls back after 5 minutes`, async (t) => {
    const f = await startUpdaterFixture(version, [{ cpu: '4', memory: '8Gi' }]);
    t.after(() => f.close());
    await f.apps.createNamespacedDeployment({
      namespace: 'default',
      body: deployment('other', 1, [{ name: 'app', image: 'nginx:1.27', resources: guaranteed('2500m') }]),
    });
    await f.apps.createNamespacedDeployment({
      namespace: 'default',
      body: deployment('web', 1, [{ name: 'app', image: 'nginx:1.27', resources: guaranteed('1') }]),
    });
    await f.tick(2000);
    await createVpa(f, 'web', 'InPlaceOrRecreate', [{ containerName: 'app', target: { cpu: '2', ...MEM }, lowerBound: { cpu: '1800m', ...MEM } }], {
      minReplicas: 1,
    });
    assert.deepEqual(summary(await f.loop()), ['web ResizeInPlace OutsideBounds']);
    await f.tick(60_000);
    assert.deepEqual(summary(await f.loop()), ['web Wait ResizeDeferred']);
    await f.restartUpdater();
    await f.tick(3 * 60_000);
    assert.deepEqual(summary(await f.loop()), ['web Wait ResizeDeferred'], 'the timer comes from the condition, not from memory');
    await f.tick(2 * 60_000);
    const fallback = await f.loop();
    assert.deepEqual(summary(fallback), ['web Evict FallbackDeferredTimeout']);
    assert.deepEqual(
      fallback.results.map((r) => r.outcome),
      ['applied'],
    );
    assert.deepEqual(
      f.calls.filter((c) => !c.startsWith('event')).map((c) => c.split(' ')[0]),
      ['resize', 'evict'],
    );
  });

  test(`updater e2e ${version}: a PodDisruptionBudget blocks an eviction; retried in later loops, never forced`, async (t) => {
    const f = await startUpdaterFixture(version, [{ cpu: '4', memory: '8Gi' }]);
    t.after(() => f.close());
    const policy = f.kc.makeApiClient(k8s.PolicyV1Api);
    await f.apps.createNamespacedDeployment({
      namespace: 'default',
      body: deployment('web', 2, [{ name: 'app', image: 'nginx:1.27', resources: guaranteed('500m') }]),
    });
    await policy.createNamespacedPodDisruptionBudget({
      namespace: 'default',
      body: { metadata: { name: 'web' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } } },
    });
    await f.tick(2000);
    await createVpa(f, 'web', 'Recreate', [{ containerName: 'app', target: { cpu: '1', ...MEM }, lowerBound: { cpu: '800m', ...MEM } }]);
    const uids = (await podsOf(f, 'web')).map((p) => p.metadata!.uid).sort();
    for (let i = 0; i < 2; i++) {
      const report = await f.loop();
      assert.deepEqual(summary(report).sort(), ['web Evict OutsideBounds', 'web Wait Canary']);
      assert.deepEqual(
        report.results.map((r) => r.outcome),
        ['blocked'],
      );
      await f.tick(30_000);
    }
    assert.deepEqual((await podsOf(f, 'web')).map((p) => p.metadata!.uid).sort(), uids, 'nothing evicted, nothing forced');
    assert.equal(f.calls.filter((c) => c.startsWith('evict')).length, 2, 'one attempt per loop');

    await policy.patchNamespacedPodDisruptionBudget(
      { namespace: 'default', name: 'web', body: { spec: { minAvailable: 1 } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await f.tick(1000);
    const report = await f.loop();
    assert.deepEqual(
      report.results.map((r) => r.outcome),
      ['applied'],
    );
  });
}
