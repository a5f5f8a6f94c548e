/**
 * Upstream 1.8's boost annotation end to end on kube-sim 1.35, built like upstream's e2e spec
 * "Updater Unboost pods when they become Ready [FeatureGate:CPUStartupBoost]": a Deployment of 3
 * pods at 200m / 100Mi, a VPA (Auto, startupBoost 2x for 1 s, target 100m / 100Mi, no bounds),
 * then each pod annotated `vpaCpuStartupBoost/hamster` with its resources (a JSON patch, as the
 * spec's AnnotatePod). The pods wait out the boost's second, then the updater resizes every pod's cpu to 100m in place: no eviction, no
 * restart. The annotation stays (the updater may not patch pods); the next loop knows the boost
 * was given back from its own resize and leaves the pods to the usual rules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createVpa, deployment, podsOf, startUpdaterFixture, summary } from './updater-fixture.ts';

const KEY = 'vpaCpuStartupBoost/hamster';

test("upstream's e2e 'Unboost pods when they become Ready' on kube-sim 1.35: the cpu goes to the recommendation in place", async (t) => {
  const f = await startUpdaterFixture('1.35', [{ cpu: '8', memory: '16Gi' }]);
  t.after(() => f.close());
  const resources = { requests: { cpu: '200m', memory: '100Mi' } };
  await f.apps.createNamespacedDeployment({
    namespace: 'default',
    body: deployment('hamster', 3, [{ name: 'hamster', image: 'registry.k8s.io/ubuntu-slim:0.14', resources }]),
  });
  await f.tick(2000);
  const initial = await podsOf(f, 'hamster');
  assert.equal(initial.length, 3);

  await createVpa(f, 'hamster', 'Auto', [{ containerName: 'hamster', target: { cpu: '100m', memory: '100Mi' } }], {
    startupBoost: { cpu: { type: 'Factor', factor: 2, durationSeconds: 1 } },
  });
  for (const p of initial) {
    const original = JSON.stringify({ requests: p.spec!.containers[0]!.resources!.requests, limits: {} });
    const init = p.metadata!.annotations ? [] : [{ op: 'add', path: '/metadata/annotations', value: {} }];
    await f.core.patchNamespacedPod({
      namespace: 'default',
      name: p.metadata!.name!,
      body: [...init, { op: 'add', path: `/metadata/annotations/${KEY.replace('/', '~1')}`, value: original }],
    });
  }
  assert.equal((await podsOf(f, 'hamster'))[0]!.metadata!.annotations![KEY], '{"requests":{"cpu":"200m","memory":"100Mi"},"limits":{}}');

  // Ready within the second (kube-sim's Ready is at once, in whole seconds): the 1 s boost lasts
  const during = await f.loop();
  assert.deepEqual(summary(during), ['hamster Wait StartupBoost', 'hamster Wait StartupBoost', 'hamster Wait StartupBoost']);
  assert.match(during.decisions[0]!.message, /^upstream's start-up cpu boost \(vpaCpuStartupBoost\/hamster\) until ready\+1s: 1 s left$/);
  await f.tick(2000);
  const over = await f.loop();
  assert.deepEqual(summary(over), [
    'hamster ResizeInPlace StartupBoostEnded',
    'hamster ResizeInPlace StartupBoostEnded',
    'hamster ResizeInPlace StartupBoostEnded',
  ]);
  assert.match(over.decisions[0]!.message, /^upstream's start-up cpu boost over \(vpaCpuStartupBoost\/hamster, ready\+1s\): cpu to the recommendation$/);
  await f.tick(6000);
  const after = await podsOf(f, 'hamster');
  for (const p of after) {
    const before = initial.find((q) => q.metadata!.name === p.metadata!.name);
    assert.equal(p.metadata!.uid, before?.metadata!.uid, 'the same pod: no eviction');
    assert.deepEqual(p.status!.containerStatuses![0]!.resources!.requests, { cpu: '100m', memory: '100Mi' });
    assert.equal(p.status!.containerStatuses![0]!.restartCount, 0, 'no restart');
    assert.ok(p.metadata!.annotations![KEY], 'the annotation stays: the updater may resize pods, not patch them');
  }
  assert.ok(!f.calls.some((c) => c.startsWith('evict')), f.calls.join(', '));

  // Given back: the usual rules (target reached, no bounds)
  assert.deepEqual(summary(await f.loop()), ['hamster Skip WithinBounds', 'hamster Skip WithinBounds', 'hamster Skip WithinBounds']);
});
