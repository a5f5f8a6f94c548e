import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { V1PodDisruptionBudget } from '@kubernetes/client-node';
import * as k8s from '@kubernetes/client-node';
import { podManifest, rawRequest, startSim, statusBody, statusCode, type SimFixture } from './sim-fixture.ts';

let sim: SimFixture;
let policy: k8s.PolicyV1Api;
before(async () => {
  sim = await startSim();
  policy = sim.kc.makeApiClient(k8s.PolicyV1Api);
});
after(async () => {
  await sim?.close();
});

/** Creates n pods labelled app=<app> in namespace ns, `ready` of them Running and Ready (kubelet-style write). */
async function makePods(ns: string, app: string, n: number, ready: number, owner?: { kind: string; name: string; uid: string }): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    const body = podManifest(`${app}-${i}`, { labels: { app } });
    if (owner && body.metadata)
      body.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }];
    await sim.core.createNamespacedPod({ namespace: ns, body });
    sim.server.store.mutate('pods', ns, `${app}-${i}`, (draft) => {
      draft.status = { ...(draft.status as object), phase: 'Running', conditions: [{ type: 'Ready', status: i < ready ? 'True' : 'False' }] };
    });
  }
}

async function evict(ns: string, name: string): Promise<number> {
  try {
    await sim.core.createNamespacedPodEviction({ namespace: ns, name, body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: ns } } });
    return 201;
  } catch (err) {
    return statusCode(err) ?? -1;
  }
}

interface Case {
  name: string;
  pods: number;
  ready: number;
  pdb?: Partial<V1PodDisruptionBudget['spec']>;
  controllerReplicas?: number;
  evictIndex: number;
  expected: number;
  allowedBefore?: number;
}

// prettier-ignore: one row per line, read as a table
const cases: Case[] = [
  { name: 'no PDB: evicted', pods: 2, ready: 2, evictIndex: 0, expected: 201 },
  { name: 'minAvailable 2 of 3 ready: one disruption allowed', pods: 3, ready: 3, pdb: { minAvailable: 2 }, evictIndex: 0, expected: 201, allowedBefore: 1 },
  { name: 'minAvailable 3 of 3 ready: 429', pods: 3, ready: 3, pdb: { minAvailable: 3 }, evictIndex: 0, expected: 429, allowedBefore: 0 },
  {
    name: 'minAvailable 50% of 3 (ceil 2) with 2 ready: 429',
    pods: 3,
    ready: 2,
    pdb: { minAvailable: '50%' },
    controllerReplicas: 3,
    evictIndex: 0,
    expected: 429,
    allowedBefore: 0,
  },
  {
    name: 'maxUnavailable 25% of 3 (ceil 1): one allowed',
    pods: 3,
    ready: 3,
    pdb: { maxUnavailable: '25%' },
    controllerReplicas: 3,
    evictIndex: 1,
    expected: 201,
    allowedBefore: 1,
  },
  { name: 'maxUnavailable 0: 429', pods: 2, ready: 2, pdb: { maxUnavailable: 0 }, controllerReplicas: 2, evictIndex: 0, expected: 429, allowedBefore: 0 },
  {
    name: 'unhealthy pod with the budget met: evicted (IfHealthyBudget)',
    pods: 3,
    ready: 2,
    pdb: { minAvailable: 2 },
    evictIndex: 2,
    expected: 201,
    allowedBefore: 0,
  },
  { name: 'unhealthy pod below budget: 429', pods: 3, ready: 1, pdb: { minAvailable: 2 }, evictIndex: 2, expected: 429, allowedBefore: 0 },
  {
    name: 'unhealthy pod below budget with AlwaysAllow: evicted',
    pods: 3,
    ready: 1,
    pdb: { minAvailable: 2, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    evictIndex: 2,
    expected: 201,
    allowedBefore: 0,
  },
];

cases.forEach((c, index) => {
  test(`eviction: ${c.name}`, async () => {
    const ns = `evict-${index}`;
    await sim.core.createNamespace({ body: { metadata: { name: ns } } });
    let owner: { kind: string; name: string; uid: string } | undefined;
    if (c.controllerReplicas !== undefined) {
      const rs = await sim.apps.createNamespacedReplicaSet({
        namespace: ns,
        body: {
          metadata: { name: 'app' },
          spec: {
            replicas: c.controllerReplicas,
            selector: { matchLabels: { app: 'app' } },
            template: { metadata: { labels: { app: 'app' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
          },
        },
      });
      owner = { kind: 'ReplicaSet', name: 'app', uid: rs.metadata?.uid ?? '' };
    }
    await makePods(ns, 'app', c.pods, c.ready, owner);
    if (c.pdb) {
      await policy.createNamespacedPodDisruptionBudget({
        namespace: ns,
        body: { metadata: { name: 'app' }, spec: { selector: { matchLabels: { app: 'app' } }, ...c.pdb } },
      });
      const stored = sim.server.disruption.recompute(ns, 'app');
      assert.equal((stored?.status as { disruptionsAllowed: number }).disruptionsAllowed, c.allowedBefore);
    }
    assert.equal(await evict(ns, `app-${c.evictIndex}`), c.expected);
    const remaining = await sim.core.listNamespacedPod({ namespace: ns });
    assert.equal(remaining.items.length, c.expected === 201 ? c.pods - 1 : c.pods);
  });
});

test('a budget-violating eviction is 429 with the real message, cause and no Retry-After', async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'evict-msg' } } });
  await makePods('evict-msg', 'web', 2, 2);
  await policy.createNamespacedPodDisruptionBudget({
    namespace: 'evict-msg',
    body: { metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, minAvailable: 2 } },
  });
  const raw = await rawRequest(sim.server, 'POST', '/api/v1/namespaces/evict-msg/pods/web-0/eviction', {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name: 'web-0' },
  });
  assert.equal(raw.status, 429);
  assert.equal(raw.headers['retry-after'], undefined);
  await assert.rejects(
    sim.core.createNamespacedPodEviction({
      namespace: 'evict-msg',
      name: 'web-0',
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-0', namespace: 'evict-msg' } },
    }),
    (err) => {
      assert.equal(statusCode(err), 429);
      const body = statusBody(err);
      assert.equal(body.reason, 'TooManyRequests');
      assert.equal(body.message, "Cannot evict pod as it would violate the pod's disruption budget.");
      assert.deepEqual(body.details?.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 2 currently' }]);
      assert.equal(body.details?.retryAfterSeconds, undefined);
      return true;
    },
  );
});

test('PDB status follows pod readiness (disruption controller)', async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'pdb-status' } } });
  await makePods('pdb-status', 'db', 3, 3);
  await policy.createNamespacedPodDisruptionBudget({
    namespace: 'pdb-status',
    body: { metadata: { name: 'db' }, spec: { selector: { matchLabels: { app: 'db' } }, minAvailable: 1 } },
  });
  const wait = async (expected: number): Promise<void> => {
    const deadline = Date.now() + 10_000; // not 50 rounds of 10 ms: a loaded machine needs longer
    while (Date.now() < deadline) {
      const pdb = await policy.readNamespacedPodDisruptionBudget({ namespace: 'pdb-status', name: 'db' });
      if (pdb.status?.disruptionsAllowed === expected) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail(`disruptionsAllowed never became ${expected}`);
  };
  await wait(2);
  sim.server.store.mutate('pods', 'pdb-status', 'db-0', (draft) => {
    draft.status = { ...(draft.status as object), conditions: [{ type: 'Ready', status: 'False' }] };
  });
  await wait(1);
  const pdb = await policy.readNamespacedPodDisruptionBudget({ namespace: 'pdb-status', name: 'db' });
  assert.equal(pdb.status?.currentHealthy, 2);
  assert.equal(pdb.status?.desiredHealthy, 1);
  assert.equal(pdb.status?.expectedPods, 3);
  assert.equal(pdb.status?.conditions?.[0]?.reason, 'SufficientPods');
});
