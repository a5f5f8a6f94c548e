import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as k8s from '@kubernetes/client-node';
import { startCluster, apiFailure, type ClusterFixture } from './cluster-fixture.ts';

const template = (app: string): k8s.V1PodTemplateSpec => ({
  metadata: { labels: { app } },
  spec: {
    containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } } }],
  },
});

async function podsOf(f: ClusterFixture, app: string): Promise<k8s.V1Pod[]> {
  return (await f.core.listNamespacedPod({ namespace: 'default', labelSelector: `app=${app}` })).items;
}

/** Records every pod CREATE that passes admission (proves controllers use the API create path). */
function watchAdmission(f: ClusterFixture): string[] {
  const seen: string[] = [];
  f.sim.server.addAdmissionPlugin({
    name: 'test-recorder',
    mutate(attrs) {
      if (attrs.resource === 'pods' && attrs.operation === 'CREATE' && !attrs.subresource) {
        const obj = attrs.object as { metadata: { name?: string; generateName?: string; labels?: Record<string, string> } };
        obj.metadata.labels = { ...(obj.metadata.labels ?? {}), admitted: 'yes' };
        seen.push(obj.metadata.name ?? obj.metadata.generateName ?? '');
      }
    },
  });
  return seen;
}

test('deployment: a ReplicaSet and its pods appear; an evicted pod comes back from the template through admission', async (t) => {
  const f = await startCluster('1.35');
  t.after(() => f.close());
  const admitted = watchAdmission(f);
  await f.apps.createNamespacedDeployment({
    namespace: 'default',
    body: { metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template('web') } },
  });
  await f.tick(1000);
  const rs = (await f.apps.listNamespacedReplicaSet({ namespace: 'default' })).items;
  assert.equal(rs.length, 1);
  assert.equal(rs[0]!.metadata?.ownerReferences?.[0]?.kind, 'Deployment');
  let pods = await podsOf(f, 'web');
  assert.equal(pods.length, 2);
  for (const p of pods) {
    assert.equal(p.status?.phase, 'Running');
    assert.equal(p.metadata?.labels?.admitted, 'yes');
    assert.equal(p.metadata?.ownerReferences?.[0]?.name, rs[0]!.metadata?.name);
    assert.equal(p.metadata?.labels?.['pod-template-hash'], rs[0]!.metadata?.labels?.['pod-template-hash']);
  }
  const victim = pods[0]!.metadata!.name!;
  await f.core.createNamespacedPodEviction({
    namespace: 'default',
    name: victim,
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: victim, namespace: 'default' } },
  });
  await f.tick(1000);
  pods = await podsOf(f, 'web');
  assert.equal(pods.length, 2);
  assert.ok(!pods.some((p) => p.metadata?.name === victim), 'the evicted pod is gone');
  assert.ok(pods.every((p) => p.status?.phase === 'Running' && p.metadata?.labels?.admitted === 'yes'));
  assert.equal(admitted.length, 3, 'two pods at start and one replacement went through admission');
  const d = await f.apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
  assert.equal(d.status?.readyReplicas, 2);
});

test('deployment scale subresource changes the number of pods', async (t) => {
  const f = await startCluster('1.35');
  t.after(() => f.close());
  await f.apps.createNamespacedDeployment({
    namespace: 'default',
    body: { metadata: { name: 'api' }, spec: { replicas: 1, selector: { matchLabels: { app: 'api' } }, template: template('api') } },
  });
  await f.tick(1000);
  await f.apps.replaceNamespacedDeploymentScale({
    namespace: 'default',
    name: 'api',
    body: { metadata: { name: 'api', namespace: 'default' }, spec: { replicas: 3 } },
  });
  await f.tick(1000);
  assert.equal((await podsOf(f, 'api')).length, 3);
  const scale = await f.apps.readNamespacedDeploymentScale({ namespace: 'default', name: 'api' });
  assert.equal(scale.spec?.replicas, 3);
  await f.apps.replaceNamespacedDeploymentScale({
    namespace: 'default',
    name: 'api',
    body: { metadata: { name: 'api', namespace: 'default' }, spec: { replicas: 1 } },
  });
  await f.tick(1000);
  assert.equal((await podsOf(f, 'api')).length, 1);
});

test('statefulset: ordinal pods; a deleted pod comes back with the same name', async (t) => {
  const f = await startCluster('1.35');
  t.after(() => f.close());
  await f.apps.createNamespacedStatefulSet({
    namespace: 'default',
    body: { metadata: { name: 'db' }, spec: { replicas: 3, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') } },
  });
  await f.tick(1000);
  let names = (await podsOf(f, 'db')).map((p) => p.metadata?.name).sort();
  assert.deepEqual(names, ['db-0', 'db-1', 'db-2']);
  const oldUid = (await f.core.readNamespacedPod({ namespace: 'default', name: 'db-1' })).metadata?.uid;
  await f.core.createNamespacedPodEviction({
    namespace: 'default',
    name: 'db-1',
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'db-1', namespace: 'default' } },
  });
  await f.tick(1000);
  names = (await podsOf(f, 'db')).map((p) => p.metadata?.name).sort();
  assert.deepEqual(names, ['db-0', 'db-1', 'db-2']);
  const again = await f.core.readNamespacedPod({ namespace: 'default', name: 'db-1' });
  assert.notEqual(again.metadata?.uid, oldUid);
  assert.equal(again.status?.phase, 'Running');
});

test('eviction blocked by a PodDisruptionBudget answers 429 and the pod stays', async (t) => {
  const f = await startCluster('1.35');
  t.after(() => f.close());
  await f.apps.createNamespacedReplicaSet({
    namespace: 'default',
    body: { metadata: { name: 'solo' }, spec: { replicas: 1, selector: { matchLabels: { app: 'solo' } }, template: template('solo') } },
  });
  await f.tick(1000);
  const { PolicyV1Api } = await import('@kubernetes/client-node');
  const kc = (await import('@kubernetes/client-node')).KubeConfig;
  const config = new kc();
  config.loadFromString(f.sim.server.kubeconfig());
  await config.makeApiClient(PolicyV1Api).createNamespacedPodDisruptionBudget({
    namespace: 'default',
    body: { metadata: { name: 'solo' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'solo' } } } },
  });
  await f.tick(1000);
  const pod = (await podsOf(f, 'solo'))[0]!.metadata!.name!;
  await assert.rejects(
    f.core.createNamespacedPodEviction({
      namespace: 'default',
      name: pod,
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod, namespace: 'default' } },
    }),
    (err: unknown) => apiFailure(err).code === 429,
  );
  assert.equal((await podsOf(f, 'solo'))[0]!.metadata!.name, pod);
});

test('daemonset: one pod per node; job: pods run to completion and the Job completes', async (t) => {
  const f = await startCluster('1.35', [{}, {}]);
  t.after(() => f.close());
  await f.apps.createNamespacedDaemonSet({
    namespace: 'default',
    body: { metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') } },
  });
  const { BatchV1Api, KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  kc.loadFromString(f.sim.server.kubeconfig());
  const batch = kc.makeApiClient(BatchV1Api);
  const jobTemplate = template('batch');
  jobTemplate.spec!.restartPolicy = 'Never';
  jobTemplate.metadata!.annotations = { 'tailor.dev/sim-run-for': '20s' };
  await batch.createNamespacedJob({
    namespace: 'default',
    body: { metadata: { name: 'batch' }, spec: { completions: 2, parallelism: 1, template: jobTemplate } },
  });
  await f.tick(1000);
  const agents = await podsOf(f, 'agent');
  assert.deepEqual(agents.map((p) => p.spec?.nodeName).sort(), ['node-1', 'node-2']);
  assert.equal((await podsOf(f, 'batch')).length, 1);
  await f.tick(20_000);
  await f.tick(1000);
  await f.tick(20_000);
  await f.tick(1000);
  const job = await batch.readNamespacedJob({ namespace: 'default', name: 'batch' });
  assert.equal(job.status?.succeeded, 2);
  assert.equal(job.status?.conditions?.[0]?.type, 'Complete');
});
