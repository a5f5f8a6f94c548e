import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as k8s from '@kubernetes/client-node';
import { ClusterReadError, ownerLinks, podResources, readClusterResources, type ClusterLister } from '../../src/report/cluster-resources.ts';

const MIB = 1024 ** 2;

function pod(name: string, phase: string, owners: k8s.V1OwnerReference[] = []): k8s.V1Pod {
  return {
    metadata: { name, namespace: 'shop', ownerReferences: owners },
    spec: {
      containers: [
        { name: 'app', image: 'x', resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } } },
        { name: 'sidecar', image: 'x' },
      ],
    },
    status: { phase },
  };
}

const ref = (kind: string, name: string, controller?: boolean): k8s.V1OwnerReference => ({ apiVersion: 'v1', kind, name, uid: name, controller });

test('pod resources in cores and bytes; unset values stay unset; finished pods reserve nothing', () => {
  const out = podResources([pod('web-1', 'Running'), pod('job-1', 'Succeeded'), pod('old-1', 'Failed')]);
  assert.deepEqual(out, [
    { key: { namespace: 'shop', pod: 'web-1', container: 'app' }, requests: { cpu: 0.25, memory: 256 * MIB }, limits: { cpu: 1, memory: 512 * MIB } },
    {
      key: { namespace: 'shop', pod: 'web-1', container: 'sidecar' },
      requests: { cpu: undefined, memory: undefined },
      limits: { cpu: undefined, memory: undefined },
    },
  ]);
});

test('owner links follow the controller reference of pods, ReplicaSets and Jobs', () => {
  const links = ownerLinks(
    [pod('web-abc-1', 'Running', [ref('Node', 'n1'), ref('ReplicaSet', 'web-abc', true)]), pod('bare', 'Running')],
    [{ metadata: { name: 'web-abc', namespace: 'shop', ownerReferences: [ref('Deployment', 'web', true)] } }],
    [{ metadata: { name: 'report-1', namespace: 'shop', ownerReferences: [ref('CronJob', 'report')] } }],
  );
  assert.deepEqual(links, [
    { namespace: 'shop', kind: 'Pod', name: 'web-abc-1', ownerKind: 'ReplicaSet', ownerName: 'web-abc' },
    { namespace: 'shop', kind: 'ReplicaSet', name: 'web-abc', ownerKind: 'Deployment', ownerName: 'web' },
    { namespace: 'shop', kind: 'Job', name: 'report-1', ownerKind: 'CronJob', ownerName: 'report' },
  ]);
});

test('three list calls per namespace, never one per pod; a failed list names its namespace', async () => {
  const calls: string[] = [];
  const lister: ClusterLister = {
    pods: async (ns) => (calls.push(`pods/${ns}`), ns === 'bad' ? Promise.reject(new Error('forbidden')) : [pod('a', 'Running'), pod('b', 'Pending')]),
    replicaSets: async (ns) => (calls.push(`rs/${ns}`), []),
    jobs: async (ns) => (calls.push(`jobs/${ns}`), []),
  };
  const got = await readClusterResources(lister, ['shop', 'batch']);
  assert.equal(got.resources.length, 8); // 2 namespaces x 2 pods x 2 containers
  assert.deepEqual(calls.sort(), ['jobs/batch', 'jobs/shop', 'pods/batch', 'pods/shop', 'rs/batch', 'rs/shop']);
  await assert.rejects(
    readClusterResources(lister, ['bad']),
    (err: unknown) => err instanceof ClusterReadError && /namespace bad: forbidden/.test(err.message) && err.cause instanceof Error,
  );
});

test('recommend --kubeconfig warns once per owner when a memory resizePolicy does not fit the runtime', async () => {
  const jvm = (name: string): k8s.V1Pod => ({
    metadata: { name, namespace: 'shop', ownerReferences: [ref('ReplicaSet', 'api-7c9', true)] },
    spec: {
      containers: [
        { name: 'app', image: 'eclipse-temurin:21', env: [{ name: 'JAVA_TOOL_OPTIONS', value: '-Xmx1g' }] },
        { name: 'proxy', image: 'envoyproxy/envoy:v1.30' },
      ],
    },
    status: { phase: 'Running' },
  });
  const lister: ClusterLister = {
    pods: async () => [jvm('api-7c9-a'), jvm('api-7c9-b'), pod('web-1', 'Running')],
    replicaSets: async () => [],
    jobs: async () => [],
  };
  const got = await readClusterResources(lister, ['shop']);
  assert.deepEqual(got.runtimeWarnings, [
    'shop/ReplicaSet/api-7c9: container app runs jvm (-Xmx 1024Mi, from env JAVA_TOOL_OPTIONS), which sizes its memory at start: resizePolicy memory NotRequired changes its limit without giving it more memory to use; set memory to RestartContainer (and allow restarts with tailor.dev/allow-container-restart) so a memory resize restarts it with the new size',
  ]);
});
