import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type * as k8s from '@kubernetes/client-node';
import { startSim, statusBody, statusCode, type SimFixture } from './sim-fixture.ts';

let sim: SimFixture;
before(async () => {
  sim = await startSim();
  await sim.core.createNamespace({ body: { metadata: { name: 'limited' } } });
  await sim.core.createNamespacedLimitRange({
    namespace: 'limited',
    body: {
      metadata: { name: 'limits' },
      spec: {
        limits: [
          {
            type: 'Container',
            max: { cpu: '2', memory: '1Gi' },
            min: { cpu: '50m' },
            defaultRequest: { cpu: '100m', memory: '128Mi' },
            maxLimitRequestRatio: { cpu: '4' },
          },
          { type: 'Pod', max: { memory: '1536Mi' } },
        ],
      },
    },
  });
});
after(async () => {
  await sim?.close();
});

let n = 0;
function pod(containers: k8s.V1Container[]): k8s.V1Pod {
  return { metadata: { name: `lr-${(n += 1)}` }, spec: { containers } };
}

test('LimitRange defaults: default limits come from max, requests from defaultRequest; QoS follows', async () => {
  const created = await sim.core.createNamespacedPod({
    namespace: 'limited',
    body: pod([{ name: 'c', image: 'c:1', resources: { requests: { cpu: '500m' } } }]),
  });
  const resources = created.spec?.containers[0]?.resources;
  assert.deepEqual(resources?.limits, { cpu: '2', memory: '1Gi' });
  assert.deepEqual(resources?.requests, { cpu: '500m', memory: '128Mi' });
  assert.equal(created.status?.qosClass, 'Burstable');
});

const violations: { name: string; containers: k8s.V1Container[]; message: string }[] = [
  {
    name: 'a limit above max',
    containers: [{ name: 'c', image: 'c:1', resources: { requests: { cpu: '1' }, limits: { cpu: '4' } } }],
    message: 'maximum cpu usage per Container is 2, but limit is 4',
  },
  {
    name: 'a request below min',
    containers: [{ name: 'c', image: 'c:1', resources: { requests: { cpu: '10m' }, limits: { cpu: '20m' } } }],
    message: 'minimum cpu usage per Container is 50m, but request is 10m',
  },
  {
    name: 'a limit/request ratio above maxLimitRequestRatio (2 / 0.25 = 8)',
    containers: [{ name: 'c', image: 'c:1', resources: { requests: { cpu: '250m' }, limits: { cpu: '2' } } }],
    message: 'cpu max limit to request ratio per Container is 4, but provided ratio is 8.000000',
  },
  {
    name: 'the pod sum of memory limits above the Pod max (2 x 1Gi)',
    containers: [
      { name: 'a', image: 'a:1', resources: { requests: { cpu: '1' } } },
      { name: 'b', image: 'b:1', resources: { requests: { cpu: '1' } } },
    ],
    message: 'maximum memory usage per Pod is 1536Mi, but limit is 2Gi',
  },
];

for (const v of violations) {
  test(`LimitRanger forbids ${v.name}`, async () => {
    const body = pod(v.containers);
    await assert.rejects(sim.core.createNamespacedPod({ namespace: 'limited', body }), (err) => {
      assert.equal(statusCode(err), 403);
      assert.equal(statusBody(err).reason, 'Forbidden');
      assert.equal(statusBody(err).message, `pods "${body.metadata?.name}" is forbidden: ${v.message}`);
      return true;
    });
  });
}

// The Pod bounds of upstream's e2e specs, with the real server's messages.
const podBounds: { name: string; limits: k8s.V1LimitRangeItem[]; containers: k8s.V1Container[]; initContainers?: k8s.V1Container[]; message: string }[] = [
  {
    name: 'summed limits above a Pod max (2 x 400m)',
    limits: [{ type: 'Pod', max: { cpu: '400m', memory: '1Gi' } }],
    containers: ['a', 'b'].map((name) => ({
      name,
      image: 'c:1',
      resources: { requests: { cpu: '400m', memory: '100Mi' }, limits: { cpu: '400m', memory: '100Mi' } },
    })),
    message: 'maximum cpu usage per Pod is 400m, but limit is 800m',
  },
  {
    name: 'summed requests above a Pod max while the limits are not (a container without a limit)',
    limits: [{ type: 'Pod', max: { cpu: '400m' } }],
    containers: [
      { name: 'a', image: 'c:1', resources: { requests: { cpu: '300m' } } },
      { name: 'b', image: 'c:1', resources: { requests: { cpu: '200m' }, limits: { cpu: '200m' } } },
    ],
    message: 'maximum cpu usage per Pod is 400m, but request is 500m',
  },
  {
    name: 'summed requests below a Pod min (2 x 100Mi)',
    limits: [{ type: 'Pod', min: { cpu: '100m', memory: '500Mi' } }],
    containers: ['a', 'b'].map((name) => ({
      name,
      image: 'c:1',
      resources: { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '150m', memory: '200Mi' } },
    })),
    message: 'minimum memory usage per Pod is 500Mi, but request is 200Mi',
  },
  {
    name: 'summed limits below a Pod min while the requests are not',
    limits: [{ type: 'Pod', min: { cpu: '300m' } }],
    containers: [
      { name: 'a', image: 'c:1', resources: { requests: { cpu: '250m' } } },
      { name: 'b', image: 'c:1', resources: { requests: { cpu: '100m' }, limits: { cpu: '100m' } } },
    ],
    message: 'minimum cpu usage per Pod is 300m, but limit is 100m',
  },
  {
    name: 'a Pod max broken by an init container with the sidecar started before it (a sidecar counts in the sum)',
    limits: [{ type: 'Pod', max: { cpu: '1' } }],
    containers: [{ name: 'a', image: 'c:1', resources: { requests: { cpu: '600m' }, limits: { cpu: '600m' } } }],
    initContainers: [
      { name: 'proxy', image: 'c:1', restartPolicy: 'Always', resources: { requests: { cpu: '500m' }, limits: { cpu: '500m' } } },
      { name: 'setup', image: 'c:1', resources: { requests: { cpu: '900m' }, limits: { cpu: '900m' } } },
    ],
    message: 'maximum cpu usage per Pod is 1, but limit is 1400m',
  },
];

podBounds.forEach((v, i) => {
  test(`LimitRanger forbids ${v.name}`, async () => {
    const namespace = `pod-bounds-${i}`;
    await sim.core.createNamespace({ body: { metadata: { name: namespace } } });
    await sim.core.createNamespacedLimitRange({ namespace, body: { metadata: { name: 'hamster-lr' }, spec: { limits: v.limits } } });
    const body = pod(v.containers);
    if (v.initContainers) body.spec!.initContainers = v.initContainers;
    await assert.rejects(sim.core.createNamespacedPod({ namespace, body }), (err) => {
      assert.equal(statusCode(err), 403);
      assert.equal(statusBody(err).message, `pods "${body.metadata?.name}" is forbidden: ${v.message}`);
      return true;
    });
  });
});

test('namespaces without a LimitRange are not affected', async () => {
  const created = await sim.core.createNamespacedPod({ namespace: 'default', body: pod([{ name: 'c', image: 'c:1' }]) });
  assert.deepEqual(Object.keys(created.spec?.containers[0]?.resources ?? { missing: true }), []);
  assert.equal(created.status?.qosClass, 'BestEffort');
});
