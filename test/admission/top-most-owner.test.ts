import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { topMostOwner, type ControllerLookup } from '../../src/admission/top-most-owner.ts';
import { container, webPod } from './fixtures.ts';

const pod = webPod([container('app')]);

test('a ReplicaSet in the cache leads to its Deployment', () => {
  const lookup: ControllerLookup = (kind, ns, name) =>
    kind === 'ReplicaSet' && ns === 'shop' && name === 'web-5d8f7' ? { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } : undefined;
  assert.deepEqual(topMostOwner(pod, 'shop', lookup), { owner: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, via: 'cache' });
});

test('a ReplicaSet not cached yet: the Deployment is derived from <deployment>-<pod-template-hash>', () => {
  assert.deepEqual(
    topMostOwner(pod, 'shop', () => undefined),
    { owner: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, via: 'derived' },
  );
});

test('a bare ReplicaSet (cached, no controller) is the top-most owner', () => {
  assert.deepEqual(topMostOwner(pod, 'shop', () => null)?.owner, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d8f7' });
});

test('a ReplicaSet not cached whose name does not end in the pod-template-hash is taken as is', () => {
  const other: V1Pod = { ...pod, metadata: { ...pod.metadata, labels: { 'pod-template-hash': 'zzz' } } };
  assert.deepEqual(topMostOwner(other, 'shop', () => undefined)?.owner.kind, 'ReplicaSet');
});

test('pod -> Job -> CronJob; StatefulSet pods stop at the StatefulSet; pods without a controller have none', () => {
  const jobPod: V1Pod = { metadata: { ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'report-29000', uid: 'j', controller: true }] } };
  const lookup: ControllerLookup = (kind, _ns, name) =>
    kind === 'Job' && name === 'report-29000' ? { apiVersion: 'batch/v1', kind: 'CronJob', name: 'report' } : undefined;
  assert.deepEqual(topMostOwner(jobPod, 'shop', lookup)?.owner, { apiVersion: 'batch/v1', kind: 'CronJob', name: 'report' });
  const stsPod: V1Pod = { metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 's', controller: true }] } };
  assert.deepEqual(
    topMostOwner(stsPod, 'shop', () => {
      throw new Error('must not look up');
    })?.owner.name,
    'db',
  );
  const bare: V1Pod = { metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: 'x' }] } };
  assert.equal(
    topMostOwner(bare, 'shop', () => undefined),
    undefined,
  );
});

test('an owner cycle ends after a bounded walk', () => {
  const looping: ControllerLookup = (kind, _ns, name) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: name === 'a' ? 'b' : 'a' });
  const p: V1Pod = { metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: 'a', controller: true }] } };
  assert.equal(topMostOwner(p, 'shop', looping)?.owner.kind, 'ReplicaSet');
});
