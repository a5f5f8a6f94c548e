import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconcileReplicaSet } from '../../src/controllers/replicaset-controller.ts';
import { planDeployment, TEMPLATE_HASH_LABEL } from '../../src/controllers/deployment-controller.ts';
import { reconcileStatefulSet } from '../../src/controllers/statefulset-controller.ts';
import { reconcileDaemonSet } from '../../src/controllers/daemonset-controller.ts';
import { reconcileJob } from '../../src/controllers/job-controller.ts';
import { templateHash } from '../../src/controllers/template-hash.ts';
import type { Workload } from '../../src/controllers/workload-types.ts';
import type { Pod } from '../../src/objects.ts';

const template = {
  metadata: { labels: { app: 'web' }, annotations: { 'tailor.dev/sim-usage': '{}' } },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
};
const workload = (kind: string, replicas: number): Workload => ({
  kind,
  metadata: { name: 'web', namespace: 'prod', uid: `${kind}-uid`, generation: 3 },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template },
});
const pod = (name: string, extra: Partial<Pod['status']> = {}, deleting = false): Pod => ({
  metadata: {
    name,
    namespace: 'prod',
    ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    creationTimestamp: `2026-01-01T00:00:0${name.length % 10}Z`,
  },
  spec: { containers: [] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], ...extra },
});

test('replicaset: creates the missing pods from the template with a controlling ownerReference', () => {
  const r = reconcileReplicaSet(workload('ReplicaSet', 3), [pod('web-a')]);
  assert.equal(r.create.length, 2);
  const p = r.create[0]!;
  assert.equal(p.metadata.generateName, 'web-');
  assert.equal(p.metadata.namespace, 'prod');
  assert.deepEqual(p.metadata.labels, { app: 'web' });
  assert.deepEqual(p.metadata.annotations, { 'tailor.dev/sim-usage': '{}' });
  assert.deepEqual(p.metadata.ownerReferences, [
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'ReplicaSet-uid', controller: true, blockOwnerDeletion: true },
  ]);
  assert.deepEqual(r.status, { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 3 });
});

test('replicaset: a terminating or failed pod does not count, so an evicted pod is replaced', () => {
  const r = reconcileReplicaSet(workload('ReplicaSet', 2), [pod('web-a'), pod('web-b', {}, true), pod('web-c', { phase: 'Failed' })]);
  assert.equal(r.create.length, 1);
});

test('replicaset: surplus pods are deleted, not-ready first', () => {
  const r = reconcileReplicaSet(workload('ReplicaSet', 1), [pod('web-a'), pod('web-b', { conditions: [] })]);
  assert.deepEqual(r.delete, ['web-b']);
});

test('deployment: creates a ReplicaSet named by the template hash, then scales it and zeroes old ones', () => {
  const d = workload('Deployment', 2);
  const plan = planDeployment(d, []);
  const hash = templateHash(template);
  assert.equal(plan.create.length, 1);
  const rs = plan.create[0]!;
  assert.equal(rs.metadata.name, `web-${hash}`);
  assert.equal(rs.spec.template.metadata?.labels?.[TEMPLATE_HASH_LABEL], hash);
  assert.equal(rs.spec.selector?.matchLabels?.[TEMPLATE_HASH_LABEL], hash);
  assert.equal(rs.metadata.ownerReferences?.[0]?.kind, 'Deployment');
  const current = { ...rs, spec: { ...rs.spec, replicas: 2 } };
  const old: Workload = { ...rs, metadata: { ...rs.metadata, name: 'web-old', labels: { [TEMPLATE_HASH_LABEL]: 'old' } }, spec: { ...rs.spec, replicas: 2 } };
  const next = planDeployment({ ...d, spec: { ...d.spec, replicas: 4 } }, [current, old]);
  assert.deepEqual(next.create, []);
  assert.deepEqual(next.scale, { [`web-${hash}`]: 4, 'web-old': 0 });
  assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{10}$/);
  assert.notEqual(templateHash({ ...template, spec: { containers: [{ name: 'app', image: 'nginx:2' }] } }), hash);
});

test('statefulset: ordinal names, the missing ordinal comes back with the same name, extra ordinals go', () => {
  const r = reconcileStatefulSet(workload('StatefulSet', 3), [pod('web-0'), pod('web-2'), pod('web-3')]);
  assert.deepEqual(
    r.create.map((p) => p.metadata.name),
    ['web-1'],
  );
  assert.equal(r.create[0]!.metadata.labels?.['apps.kubernetes.io/pod-index'], '1');
  assert.equal(r.create[0]!.metadata.labels?.['statefulset.kubernetes.io/pod-name'], 'web-1');
  assert.deepEqual(r.delete, ['web-3']);
  const waiting = reconcileStatefulSet(workload('StatefulSet', 3), [pod('web-0'), pod('web-1', {}, true), pod('web-2')]);
  assert.deepEqual(waiting.create, [], 'a terminating pod keeps its name until it is gone');
});

test('daemonset: one pod per schedulable node, bound directly', () => {
  const nodes = [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }, { metadata: { name: 'c' }, spec: { unschedulable: true } }];
  const existing = { ...pod('web-x'), spec: { nodeName: 'a', containers: [] } };
  const r = reconcileDaemonSet(workload('DaemonSet', 0), [existing], nodes);
  assert.deepEqual(
    r.create.map((p) => p.spec.nodeName),
    ['b'],
  );
  assert.equal(r.status.desiredNumberScheduled, 2);
});

test('job: runs parallelism pods until completions succeeded, then Complete', () => {
  const job: Workload = { ...workload('Job', 0), spec: { template, completions: 3, parallelism: 2 } };
  assert.equal(reconcileJob(job, [], 'T').create.length, 2);
  assert.equal(reconcileJob(job, [pod('a', { phase: 'Succeeded' }), pod('b', { phase: 'Succeeded' })], 'T').create.length, 1);
  const done = reconcileJob(
    job,
    ['a', 'b', 'c'].map((n) => pod(n, { phase: 'Succeeded' })),
    'T',
  );
  assert.equal(done.create.length, 0);
  assert.deepEqual(done.status.conditions, [{ type: 'Complete', status: 'True', lastTransitionTime: 'T' }]);
});
