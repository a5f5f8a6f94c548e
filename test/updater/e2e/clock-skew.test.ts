/**
 * The updater on kube-sim with a pod whose last change lies 213 min ahead of the updater's clock
 * (written by a replica whose clock runs ahead): the cooldown counts from when the updater first
 * saw it and ends one cooldown later, instead of freezing for 213 min.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createVpa, deployment, podsOf, startUpdaterFixture, summary } from './updater-fixture.ts';

const RES = { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } };

test('updater e2e: a change time 213 min in the future holds the pod for one cooldown, not 213 min', async (t) => {
  const f = await startUpdaterFixture('1.35', [{ cpu: '4', memory: '8Gi' }]);
  t.after(() => f.close());
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', 1, [{ name: 'app', image: 'nginx:1.27', resources: RES }]) });
  await f.tick(2000);
  const [pod] = await podsOf(f, 'web');
  const ahead = new Date(f.sim.cluster.clock.now() + 213 * 60_000).toISOString();
  await f.core.patchNamespacedPod({
    name: pod!.metadata!.name!,
    namespace: 'default',
    body: [{ op: 'add', path: '/metadata/annotations', value: { 'tailor.dev/last-update': ahead } }],
  });
  await createVpa(f, 'web', 'InPlaceOrRecreate', [
    {
      containerName: 'app',
      // 500m is 7% below the lowerBound: outside it, but not short enough to skip the cooldown (decision 0296)
      target: { cpu: '800m', memory: '256Mi' },
      lowerBound: { cpu: '540m', memory: '200Mi' },
      upperBound: { cpu: '1600m', memory: '400Mi' },
    },
  ]);

  const first = await f.loop();
  assert.deepEqual(summary(first), ['web Wait Cooldown']);
  assert.match(first.decisions[0]!.message, /^changed 0 s ago \(its change time lies 213 min ahead of this clock: clock skew/);
  await f.tick(10 * 60_000);
  assert.deepEqual(summary(await f.loop()), ['web Wait Cooldown']);
  await f.tick(6 * 60_000);
  assert.deepEqual(summary(await f.loop()), ['web ResizeInPlace OutsideBounds']);
});
