import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startKubeSim } from '../../src/kube-sim.ts';
import { defaultScenario } from '../../src/scenario.ts';
import { VPA_CRDS } from '../support/vpa-crds.ts';

// reactToChanges is on (the default). 200 Deployments of 2 replicas created at once start one
// reconciliation (200 ReplicaSets, 400 pods created, bound and started) that must (a) come to an
// end, and (b) let the API server answer HTTP requests while it runs. Before decision 0145 each of
// the thousands of writes queued its own full pass and no pass returned to the event loop, so no
// request was answered until every pass was done (at 1,000 Deployments: never, in practice).
test('a 200-Deployment cluster settles, and its API answers while it reconciles', async (t) => {
  const scenario = defaultScenario();
  scenario.nodes = Array.from({ length: 4 }, (_, i) => ({ name: `n-${i}`, cpu: '64', memory: '256Gi', pods: 200, labels: {}, resizeSupport: true }));
  const sim = await startKubeSim({ crdManifests: VPA_CRDS, scenario, startAt: Date.UTC(2026, 0, 1), tls: false });
  t.after(() => sim.close());
  const seenWhileReconciling: boolean[] = [];
  sim.server.addRoute('/probe', (_req, res) => {
    seenWhileReconciling.push(sim.cluster.reconciling);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  for (let i = 0; i < 200; i++) {
    await sim.server.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `app-${i}`, namespace: 'default' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: `app-${i}` } },
        template: {
          metadata: { labels: { app: `app-${i}` } },
          spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] },
        },
      },
    } as never);
  }
  assert.equal(sim.cluster.reconciling, true, 'the creates queued a reaction pass');
  let settled = false;
  const settling = sim.cluster.settle().then(() => (settled = true));
  // Requests go out one after another until the cluster has settled; at least one of them must
  // be served while the reconciliation is still under way.
  while (!settled) {
    const res = await fetch(new URL('/probe', sim.url));
    assert.equal(await res.text(), 'ok');
  }
  await settling;
  assert.ok(seenWhileReconciling.includes(true), `requests answered: ${seenWhileReconciling.length}, none during the reconciliation`);
  assert.equal(sim.cluster.reconciling, false);
  const pods = sim.server.store.list('pods');
  assert.equal(pods.length, 400);
  assert.equal(pods.filter((p) => (p.status as { phase?: string } | undefined)?.phase === 'Running').length, 400);
  const apiPods = (await (await fetch(new URL('/api/v1/pods', sim.url), { headers: { authorization: `Bearer ${sim.server.adminToken}` } })).json()) as {
    items: unknown[];
  };
  assert.equal(apiPods.items.length, 400);
});
