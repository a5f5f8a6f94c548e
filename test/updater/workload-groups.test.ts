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
  assert.deepEqual(hpaUtilizationResources(hpa('web', [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }])), ['cpu']);
  assert.deepEqual(hpaUtilizationResources(hpa('web', [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } }])), []);
  assert.deepEqual(
    hpaUtilizationResources(hpa('web', [
      { type: 'ContainerResource', containerResource: { container: 'app', name: 'memory', target: { type: 'Utilization', averageUtilization: 80 } } },
      { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '10' } } },
    ])),
    ['memory'],
  );
});

test('pods go to the VPA that targets their Deployment, with its namespace\'s LimitRanges, HPA resources and replicas', () => {
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
  assert.deepEqual(g!.pods.map((p) => p.metadata!.name), ['web-1']);
  assert.deepEqual(g!.limitRanges, [lr]);
  assert.deepEqual(g!.hpaResources, ['cpu']);
  assert.equal(g!.replicas, 3);
  assert.deepEqual(unmatched.map((p) => p.metadata!.name), ['api-1', 'web-x']);
});
