import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OwnerIndex } from '../../src/metrics/owner-resolution.ts';
import { attributeGonePods } from '../../src/recommender/history-attribution.ts';

const links = new OwnerIndex([
  { namespace: 'shop', kind: 'Pod', name: 'old-1', ownerKind: 'ReplicaSet', ownerName: 'web-5d4' },
  { namespace: 'shop', kind: 'ReplicaSet', name: 'web-5d4', ownerKind: 'Deployment', ownerName: 'web' },
  { namespace: 'shop', kind: 'Pod', name: 'cur-1', ownerKind: 'ReplicaSet', ownerName: 'web-7c9' },
  { namespace: 'shop', kind: 'ReplicaSet', name: 'web-7c9', ownerKind: 'Deployment', ownerName: 'web' },
  { namespace: 'shop', kind: 'Pod', name: 'job-pod', ownerKind: 'Job', ownerName: 'report-1' },
  { namespace: 'shop', kind: 'Job', name: 'report-1', ownerKind: 'CronJob', ownerName: 'report' },
  { namespace: 'shop', kind: 'Pod', name: 'db-0', ownerKind: 'StatefulSet', ownerName: 'db' },
  { namespace: 'other', kind: 'Pod', name: 'old-1', ownerKind: 'ReplicaSet', ownerName: 'web-5d4' },
]);

test('a gone pod of an earlier ReplicaSet counts for the VPA on the Deployment; current pods are left to the selector', () => {
  const routes = attributeGonePods(links, new Set(['shop/cur-1']), [{ vpaId: 'shop/web', namespace: 'shop', kind: 'Deployment', name: 'web' }]);
  assert.deepEqual(routes, [{ namespace: 'shop', pod: 'old-1', vpaId: 'shop/web' }]);
});

test('any link of the chain matches (a VPA on the ReplicaSet itself, a CronJob); other namespaces and workloads do not', () => {
  const routes = attributeGonePods(links, new Set(), [
    { vpaId: 'shop/rs', namespace: 'shop', kind: 'ReplicaSet', name: 'web-5d4' },
    { vpaId: 'shop/report', namespace: 'shop', kind: 'CronJob', name: 'report' },
  ]);
  assert.deepEqual(routes.map((r) => `${r.namespace}/${r.pod}->${r.vpaId}`).sort(), ['shop/job-pod->shop/report', 'shop/old-1->shop/rs']);
});
