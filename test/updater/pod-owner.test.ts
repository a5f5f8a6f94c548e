import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workloadKey } from '../../src/api/controlling-vpa.ts';
import { podWorkload } from '../../src/updater/pod-owner.ts';
import { container, pod } from '../builders/pods.ts';

function owned(kind: string, name: string, labels?: Record<string, string>) {
  const p = pod({ containers: [container('app')] });
  p.metadata!.ownerReferences = [{ apiVersion: 'apps/v1', kind, name, uid: 'u', controller: true }];
  if (labels) p.metadata!.labels = labels;
  return p;
}

test('a Deployment pod: the ReplicaSet name minus its pod-template-hash', () => {
  const ref = podWorkload(owned('ReplicaSet', 'web-api-5d9c7b', { 'pod-template-hash': '5d9c7b' }));
  assert.deepEqual(ref, { kind: 'Deployment', namespace: 'shop', name: 'web-api' });
  assert.equal(workloadKey(ref!), 'Deployment/shop/web-api');
});

test('a bare ReplicaSet, a StatefulSet, no owner', () => {
  assert.deepEqual(podWorkload(owned('ReplicaSet', 'rs-1')), { kind: 'ReplicaSet', namespace: 'shop', name: 'rs-1' });
  assert.deepEqual(podWorkload(owned('StatefulSet', 'db')), { kind: 'StatefulSet', namespace: 'shop', name: 'db' });
  assert.equal(podWorkload(pod({ containers: [container('app')] })), undefined);
});

test('only the controller ownerReference counts, as upstream: an owner without controller: true is no workload', () => {
  const p = owned('StatefulSet', 'db');
  p.metadata!.ownerReferences = [{ apiVersion: 'example.com/v1', kind: 'Backup', name: 'nightly', uid: 'b' }];
  assert.equal(podWorkload(p), undefined);
  p.metadata!.ownerReferences.push({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 's', controller: true });
  assert.deepEqual(podWorkload(p), { kind: 'StatefulSet', namespace: 'shop', name: 'db' });
});
