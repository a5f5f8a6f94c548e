import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startKubeSim } from '../../src/kube-sim.ts';
import { parseScenario } from '../../src/scenario.ts';
import { VPA_CRDS } from '../support/vpa-crds.ts';

const T0 = Date.UTC(2026, 0, 1);

test('a scenario starts its nodes, namespaces, objects and workloads; traces replay from files', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kube-sim-scenario-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'web.csv'), 'timestamp,container,cpu_cores,memory_bytes\n0,app,0.5,100000000\n60,app,0.25,200000000\n');
  const scenario = parseScenario(`
seed: 3
nodes: [{name: n, count: 2, cpu: "2", memory: 4Gi}]
workloads:
  - kind: ReplicaSet
    name: web
    namespace: shop
    replicas: 1
    containers:
      - name: app
        requests: {cpu: 100m, memory: 128Mi}
        limits: {cpu: "1", memory: 512Mi}
        usage: {cpu: "trace(web.csv)", memory: "trace(web.csv)"}
objects:
  - apiVersion: policy/v1
    kind: PodDisruptionBudget
    metadata: {name: web, namespace: shop}
    spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
`);
  const sim = await startKubeSim({ crdManifests: VPA_CRDS, scenario, baseDir: dir, startAt: T0 });
  t.after(() => sim.close());
  const kc = new k8s.KubeConfig();
  kc.loadFromString(sim.server.kubeconfig());
  const core = kc.makeApiClient(k8s.CoreV1Api);
  assert.deepEqual(
    (await core.listNode()).items.map((n) => n.metadata?.name),
    ['n-1', 'n-2'],
  );
  const pdb = await kc.makeApiClient(k8s.PolicyV1Api).readNamespacedPodDisruptionBudget({ namespace: 'shop', name: 'web' });
  assert.equal(pdb.spec?.minAvailable, 1);
  const pods = (await core.listNamespacedPod({ namespace: 'shop' })).items;
  assert.equal(pods.length, 1);
  const pod = pods[0]!.metadata!.name!;
  await sim.cluster.tick(30_000);
  await sim.cluster.settle();
  const metrics = () => {
    const meter = sim.cluster.kubelet.meter(pods[0]!.metadata!.uid!, 'app')!;
    return { cpu: meter.cpuMillicores, memory: meter.workingSetBytes };
  };
  assert.deepEqual(metrics(), { cpu: 500, memory: 100_000_000 });
  await sim.cluster.tick(60_000);
  assert.deepEqual(metrics(), { cpu: 250, memory: 200_000_000 }, `90 s into a 120 s trace (${pod})`);
  await sim.cluster.tick(60_000);
  assert.deepEqual(metrics(), { cpu: 500, memory: 100_000_000 }, '150 s wraps to 30 s');

  // A pod naming a trace that was not in the scenario loads it on demand; a missing one is a warning.
  await core.createNamespacedPod({
    namespace: 'shop',
    body: {
      metadata: { name: 'adhoc', annotations: { 'tailor.dev/sim-usage': '{"app": {"cpu": "trace(web.csv)", "memory": "trace(nope.csv)"}}' } },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    },
  });
  await sim.cluster.tick(1000);
  await sim.cluster.settle();
  const events = await core.listNamespacedEvent({ namespace: 'shop', fieldSelector: 'involvedObject.name=adhoc' });
  const warning = events.items.find((e) => e.reason === 'InvalidUsagePattern');
  assert.match(warning?.message ?? '', /^app\.memory: cannot load trace "nope\.csv": ENOENT/);
  assert.ok(!events.items.some((e) => e.reason === 'InvalidUsagePattern' && e.message?.includes('web.csv')));
});
