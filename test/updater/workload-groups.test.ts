import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1LimitRange, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { hpaUtilizationResources } from '../../src/updater/hpa.ts';
import { groupWorkloads } from '../../src/updater/workload-groups.ts';
import { container, pod } from '../builders/pods.ts';
import { vpa } from '../builders/vpas.ts';

function deploymentPod(name: string, deployment: string, namespace = 'shop') {
  const p = pod({ name, namespace, containers: [container('app')] });
  p.metadata!.labels = { 'pod-template-hash': 'abc' };
  p.metadata!.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${deployment}-abc`, uid: 'u', controller: true }];
  return p;
}

const hpa = (target: string, metrics: NonNullable<V2HorizontalPodAutoscaler['spec']>['metrics']): V2HorizontalPodAutoscaler => ({
  metadata: { name: target, namespace: 'shop' },
  spec: { scaleTargetRef: { kind: 'Deployment', name: target }, maxReplicas: 5, metrics },
});

test('HPA conflicts: Resource or ContainerResource utilisation targets only', () => {
  assert.deepEqual(
    hpaUtilizationResources(hpa('web', [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }])),
    ['cpu'],
  );
  assert.deepEqual(
    hpaUtilizationResources(hpa('web', [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } }])),
    [],
  );
  assert.deepEqual(
    hpaUtilizationResources(
      hpa('web', [
        { type: 'ContainerResource', containerResource: { container: 'app', name: 'memory', target: { type: 'Utilization', averageUtilization: 80 } } },
        { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      ]),
    ),
    ['memory'],
  );
});

test("pods go to the VPA that targets their Deployment, with its namespace's LimitRanges, HPA resources and replicas", () => {
  const web = vpa();
  const lr: V1LimitRange = { metadata: { name: 'lr', namespace: 'shop' }, spec: { limits: [{ type: 'Container', max: { cpu: '2' } }] } };
  const elsewhere: V1LimitRange = { metadata: { name: 'lr', namespace: 'other' }, spec: { limits: [] } };
  const { groups, unmatched } = groupWorkloads({
    vpas: [web],
    pods: [deploymentPod('web-1', 'web'), deploymentPod('api-1', 'api'), deploymentPod('web-x', 'web', 'other')],
    limitRanges: [lr, elsewhere],
    hpas: [hpa('web', [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }])],
    workloads: [{ kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 3 } }],
  });
  assert.equal(groups.length, 1);
  const [g] = groups;
  assert.equal(g!.workload, 'Deployment/shop/web');
  assert.deepEqual(
    g!.pods.map((p) => p.metadata!.name),
    ['web-1'],
  );
  assert.deepEqual(g!.limitRanges, [lr]);
  assert.deepEqual(g!.hpaResources, ['cpu']);
  assert.equal(g!.replicas, 3);
  assert.deepEqual(
    unmatched.map((p) => p.metadata!.name),
    ['api-1', 'web-x'],
  );
});

test('the first workload object of a target gives the replicas; HPAs and LimitRanges keep their order; kinds and namespaces tell targets apart', () => {
  const web = vpa();
  const api = vpa();
  api.metadata.name = 'api';
  api.spec.targetRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'api' };
  const lr = (name: string, namespace: string | undefined): V1LimitRange => ({ metadata: { name, ...(namespace ? { namespace } : {}) }, spec: { limits: [] } });
  const memoryHpa = {
    ...hpa('web', [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 70 } } }]),
    metadata: { name: 'b-memory', namespace: 'shop' },
  };
  const cpuHpa = {
    ...hpa('web', [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]),
    metadata: { name: 'a-cpu', namespace: 'shop' },
  };
  const { groups } = groupWorkloads({
    vpas: [web, api],
    pods: [],
    limitRanges: [lr('second', 'shop'), lr('default-ns', undefined), lr('first', 'shop')],
    hpas: [memoryHpa, { metadata: { name: 'no-spec', namespace: 'shop' } }, cpuHpa, { ...cpuHpa, metadata: { name: 'other-ns', namespace: 'other' } }],
    workloads: [
      { kind: 'StatefulSet', metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 9 } },
      { kind: 'Deployment', metadata: { name: 'web', namespace: 'other' }, spec: { replicas: 8 } },
      { metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 7 } },
      { kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 3 } },
      { kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 4 } },
      { kind: 'StatefulSet', metadata: { name: 'api', namespace: 'shop' } },
    ],
  });
  const [g, a] = groups;
  assert.equal(g!.replicas, 3);
  assert.deepEqual(
    g!.limitRanges?.map((l) => l.metadata?.name),
    ['second', 'first'],
  );
  assert.deepEqual(g!.hpaResources, ['memory', 'cpu']);
  assert.deepEqual(g!.hpaNames, ['a-cpu', 'b-memory']);
  assert.equal(a!.workload, 'StatefulSet/shop/api');
  assert.equal(a!.replicas, undefined);
  assert.equal(a!.hpaResources, undefined);
});

test('grouping reads each workload object, HPA and LimitRange a bounded number of times, not once per VPA', () => {
  // 10,000 VPAs: one scan of these lists per VPA was 10^8 comparisons in every updater loop.
  const n = 300;
  let reads = 0;
  const counted = <T extends object>(o: T): T => new Proxy(o, { get: (t, p, r) => ((reads += 1), Reflect.get(t, p, r)) });
  const vpas = Array.from({ length: n }, (_, i) => {
    const v = vpa();
    v.metadata.name = `w${i}`;
    v.spec.targetRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: `w${i}` };
    return v;
  });
  const { groups } = groupWorkloads({
    vpas,
    pods: [],
    workloads: Array.from({ length: n }, (_, i) => counted({ kind: 'Deployment', metadata: { name: `w${i}`, namespace: 'shop' }, spec: { replicas: i } })),
    hpas: Array.from({ length: n }, (_, i) => counted(hpa(`w${i}`, []))),
    limitRanges: Array.from({ length: n }, (_, i) => counted({ metadata: { name: `lr${i}`, namespace: `ns${i}` }, spec: { limits: [] } })),
  });
  assert.deepEqual(
    groups.map((g) => g.replicas),
    Array.from({ length: n }, (_, i) => i),
  );
  assert.ok(reads <= 20 * n, `${reads} property reads for ${n} VPAs and ${n} objects of each kind`);
});

test('two VPAs on one workload: one group, with the oldest VPA (then the first name), whatever the order given', () => {
  const at = (name: string, created: string) => {
    const v = vpa();
    v.metadata.name = name;
    v.metadata.creationTimestamp = created;
    return v;
  };
  const owner = at('web', '2026-01-01T09:00:00Z');
  const younger = at('a-web-copy', '2026-01-01T09:00:02Z');
  for (const vpas of [
    [younger, owner],
    [owner, younger],
  ]) {
    const { groups } = groupWorkloads({ vpas, pods: [deploymentPod('web-1', 'web')] });
    assert.deepEqual(
      groups.map((g) => `${g.workload} ${g.vpa.metadata.name} ${g.pods.length}`),
      ['Deployment/shop/web web 1'],
    );
  }
  const tie = at('b', '2026-01-01T09:00:00Z');
  assert.equal(groupWorkloads({ vpas: [tie, at('a', '2026-01-01T09:00:00Z')], pods: [] }).groups[0]!.vpa.metadata.name, 'a');
  // The controlling VPA's mode does not matter: an older VPA in mode Off keeps the workload (as in the webhook and the recommender).
  const off = at('z-off', '2026-01-01T08:00:00Z');
  off.spec.updatePolicy = { updateMode: 'Off' };
  assert.equal(groupWorkloads({ vpas: [owner, off], pods: [] }).groups[0]!.vpa.metadata.name, 'z-off');
});

test("a CronJob's pods go to the VPA on the CronJob, through their Job's owner; a Job without one stays a Job", () => {
  const jobPod = (name: string, job: string) => {
    const p = pod({ name, namespace: 'shop', containers: [container('app')] });
    p.metadata!.ownerReferences = [{ apiVersion: 'batch/v1', kind: 'Job', name: job, uid: 'u', controller: true }];
    return p;
  };
  const onCronJob = vpa();
  onCronJob.metadata.name = 'nightly';
  onCronJob.spec.targetRef = { apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly' };
  const onJob = vpa();
  onJob.metadata.name = 'once';
  onJob.spec.targetRef = { apiVersion: 'batch/v1', kind: 'Job', name: 'once' };
  const { groups, unmatched } = groupWorkloads({
    vpas: [onCronJob, onJob],
    pods: [jobPod('nightly-29412345-abcde', 'nightly-29412345'), jobPod('once-xyz', 'once'), jobPod('orphan-1', 'nightly-29412399')],
    workloads: [
      { kind: 'Job', metadata: { name: 'nightly-29412345', namespace: 'shop', ownerReferences: [{ kind: 'CronJob', name: 'nightly', controller: true }] } },
      { kind: 'Job', metadata: { name: 'once', namespace: 'shop' } },
    ],
  });
  assert.deepEqual(
    groups.map((g) => [g.workload, g.pods.map((p) => p.metadata!.name)]),
    [
      ['CronJob/shop/nightly', ['nightly-29412345-abcde']],
      ['Job/shop/once', ['once-xyz']],
    ],
  );
  // A Job not (yet) in the cache: the pod cannot be told apart and is left alone.
  assert.deepEqual(
    unmatched.map((p) => p.metadata!.name),
    ['orphan-1'],
  );
});
