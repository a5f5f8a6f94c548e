/**
 * Two VPAs on one Deployment, on kube-sim: the updater acts on the controlling one (the oldest,
 * decision 0277), the VPA the recommender keeps writing and the webhook applies, not on the first
 * one its watch cache happens to list. A fresh list comes in name order (as from etcd), so a newer
 * VPA whose name sorts first used to win in the updater while the recommender and the webhook used
 * the older one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { admitPod } from '../../../src/admission/pod-admission.ts';
import { cached } from '../../admission/fixtures.ts';
import { createVpa, deployment, podsOf, startUpdaterFixture, summary } from './updater-fixture.ts';

const RES = { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } };

test('updater e2e: two VPAs on one Deployment, the updater acts on the oldest (as the recommender and the webhook do), not on the first listed', async (t) => {
  const f = await startUpdaterFixture('1.33', [{ cpu: '4', memory: '8Gi' }]);
  t.after(() => f.close());
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', 1, [{ name: 'app', image: 'nginx:1.27', resources: RES }]) });
  await f.tick(2000);
  // The owner: created first, its recommendation renewed by the recommender.
  await createVpa(f, 'web', 'InPlaceOrRecreate', [
    {
      containerName: 'app',
      target: { cpu: '800m', memory: '256Mi' },
      lowerBound: { cpu: '700m', memory: '200Mi' },
      upperBound: { cpu: '1600m', memory: '400Mi' },
    },
  ]);
  await f.tick(2000);
  // A second VPA on the same Deployment, two seconds younger, its name first in order; the
  // recommender marks it MultipleVPAs and leaves its recommendation as it was.
  await createVpa(
    f,
    'a-web-copy',
    'InPlaceOrRecreate',
    [
      {
        containerName: 'app',
        target: { cpu: '300m', memory: '256Mi' },
        lowerBound: { cpu: '250m', memory: '200Mi' },
        upperBound: { cpu: '400m', memory: '400Mi' },
      },
    ],
    { target: 'web' },
  );
  // A restarted updater lists the VPAs afresh: in name order, the younger VPA first.
  await f.restartUpdater();
  const [before] = await podsOf(f, 'web');

  const report = await f.loop();
  assert.deepEqual(summary(report), ['web ResizeInPlace OutsideBounds']);
  assert.match(report.decisions[0]!.message, /700m/, `outside the owner's bounds (700m-1600m), not the copy's: ${report.decisions[0]!.message}`);
  await f.tick(5000);
  const [after] = await podsOf(f, 'web');
  assert.equal(after!.metadata!.uid, before!.metadata!.uid, 'the same pod, resized in place');
  assert.equal(after!.spec!.containers[0]!.resources!.requests!.cpu, '800m', "the owner's target, not the copy's 300m");

  // The webhook picks the same VPA for a new pod of the Deployment, from the same objects.
  const vpas = (await f.custom.listNamespacedCustomObject({
    group: 'autoscaling.k8s.io',
    version: 'v1',
    namespace: 'default',
    plural: 'verticalpodautoscalers',
  })) as { items: Record<string, unknown>[] };
  const rs = after!.metadata!.ownerReferences!.find((o) => o.controller)!;
  const fresh: V1Pod = {
    metadata: { namespace: 'default', labels: after!.metadata!.labels!, ownerReferences: [rs] },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: RES }] },
  };
  const admitted = admitPod(fresh, 'default', {
    vpas: vpas.items.map(cached),
    limitRanges: [],
    controllerOf: (kind, _ns, name) => (kind === 'ReplicaSet' && name === rs.name ? { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } : undefined),
  });
  assert.equal(admitted.vpaName, 'web');
});
