/**
 * The VPA that governed a pod at a moment (vpa-timeline.ts): the pod's Deployment through its
 * ReplicaSet, the VPA as last seen before then (a policy changed later does not count), none
 * before the VPA was created or after it was deleted.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import { pod, container } from '../builders/pods.ts';
import { vpa } from '../builders/vpas.ts';
import { cronJobOf, ObjectTimeline, podController, vpaLookup, type WatchRecord } from './vpa-timeline.ts';

function owned(p: V1Pod, kind: string, name: string, hash?: string): V1Pod {
  p.metadata!.ownerReferences = [{ apiVersion: 'apps/v1', kind, name, uid: 'u', controller: true }];
  if (hash) p.metadata!.labels = { 'pod-template-hash': hash };
  return p;
}

test("a pod's controller: a ReplicaSet's Deployment by pod-template-hash, else the owner itself", () => {
  assert.deepEqual(podController(owned(pod({ containers: [container('app')] }), 'ReplicaSet', 'web-5d8f7c', '5d8f7c')), { kind: 'Deployment', name: 'web' });
  assert.deepEqual(podController(owned(pod({ containers: [container('app')] }), 'ReplicaSet', 'plain')), { kind: 'ReplicaSet', name: 'plain' });
  assert.deepEqual(podController(owned(pod({ containers: [container('app')] }), 'StatefulSet', 'db')), { kind: 'StatefulSet', name: 'db' });
  assert.equal(podController(pod({ containers: [container('app')] })), undefined);
});

test('the VPA as it was: created at 10, its maxAllowed changed at 20, deleted at 30', () => {
  const web = owned(pod({ name: 'web-5d8f7c-abcde', containers: [container('app')] }), 'ReplicaSet', 'web-5d8f7c', '5d8f7c');
  const first = vpa({ policies: [{ containerName: 'app', maxAllowed: { cpu: '1' } }] });
  const second = vpa({ policies: [{ containerName: 'app', maxAllowed: { cpu: '2' } }] });
  const pods = new ObjectTimeline<V1Pod>([{ at: 5, type: 'ADDED', object: web }]);
  const records: WatchRecord<VerticalPodAutoscaler>[] = [
    { at: 30, type: 'DELETED', object: second },
    { at: 10, type: 'ADDED', object: first },
    { at: 20, type: 'MODIFIED', object: second },
  ];
  const at = vpaLookup(pods, new ObjectTimeline(records));
  const max = (t: number) => at('shop', 'web-5d8f7c-abcde', t)?.spec.resourcePolicy?.containerPolicies?.[0]?.maxAllowed?.cpu;
  assert.deepEqual([max(9), max(10), max(19), max(20), max(29), max(30)], [undefined, '1', '1', '2', '2', undefined]);
  assert.equal(at('shop', 'other', 15), undefined, 'a pod the watch never saw');
});

test("a CronJob's pod: its Job's CronJob by the Job's name, a VPA naming the Job itself first (the first 45-minute run flagged cron's resizes as ungoverned)", () => {
  assert.deepEqual(cronJobOf({ kind: 'Job', name: 'cron-29944690' }), { kind: 'CronJob', name: 'cron' });
  assert.equal(cronJobOf({ kind: 'Job', name: 'migrate-2' }), undefined, 'not a scheduled time: a Job of its own');
  assert.equal(cronJobOf({ kind: 'StatefulSet', name: 'db-29944690' }), undefined);
  const p = owned(pod({ name: 'cron-29944690-znjvh', containers: [container('app')] }), 'Job', 'cron-29944690');
  const pods = new ObjectTimeline<V1Pod>([{ at: 5, type: 'ADDED', object: p }]);
  const forCron = vpa({});
  forCron.metadata.name = 'cron';
  forCron.spec.targetRef = { apiVersion: 'batch/v1', kind: 'CronJob', name: 'cron' };
  assert.equal(vpaLookup(pods, new ObjectTimeline([{ at: 1, type: 'ADDED', object: forCron }]))('shop', p.metadata!.name!, 10)?.metadata.name, 'cron');
  const forJob = vpa({});
  forJob.metadata.name = 'one-job';
  forJob.spec.targetRef = { apiVersion: 'batch/v1', kind: 'Job', name: 'cron-29944690' };
  const both = new ObjectTimeline([
    { at: 1, type: 'ADDED' as const, object: forCron },
    { at: 1, type: 'ADDED' as const, object: forJob },
  ]);
  assert.equal(vpaLookup(pods, both)('shop', p.metadata!.name!, 10)?.metadata.name, 'one-job');
});

test('two VPAs on one workload: the oldest governs, as in Tailor (a hostile VPA created later on web does not)', () => {
  const web = owned(pod({ name: 'web-5d8f7c-abcde', containers: [container('app')] }), 'ReplicaSet', 'web-5d8f7c', '5d8f7c');
  const pods = new ObjectTimeline<V1Pod>([{ at: 5, type: 'ADDED', object: web }]);
  const lane = vpa({});
  lane.metadata.name = 'web';
  lane.metadata.creationTimestamp = '2026-12-08T01:00:00Z';
  const hostile = vpa({ policies: [{ containerName: '*', minAllowed: { cpu: '2' }, maxAllowed: { cpu: '1' } }] });
  hostile.metadata.name = 'aaa-hostile';
  hostile.metadata.creationTimestamp = '2026-12-08T01:05:00Z';
  for (const v of [lane, hostile]) v.spec.targetRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
  const timeline = new ObjectTimeline([
    { at: 1, type: 'ADDED' as const, object: hostile },
    { at: 1, type: 'ADDED' as const, object: lane },
  ]);
  assert.equal(vpaLookup(pods, timeline)('shop', web.metadata!.name!, 10)?.metadata.name, 'web');
});
