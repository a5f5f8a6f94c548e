/**
 * A VPA created while the recommender runs gets its workload's history at once (decision 0162),
 * on kube-sim with a real Prometheus holding 3 h of backfilled history, for both strategies.
 *
 * History: Deployment `web`'s two current pods used 1.5 cores and 600 MiB from 3 h to 1 h ago, then
 * 0.4 cores and 200 MiB; a pod of web's earlier ReplicaSet (gone) used 2 cores until 2 h ago.
 * Deployment `api` (0.2 cores) has a VPA from the start, so the feed reads the namespace.
 * Recommender A (`--history-backfill-vpas 1`) runs cycles at now-30m and now-20m with only api's
 * VPA; then the VPAs of web and db (0.3 cores) are created: cycle 3 (now-10m) reads one of them,
 * the other shows FetchingHistory until cycle 4 (now-5m) reads it. Recommender B (the reference,
 * after A, its checkpoints deleted) has all VPAs from the start and runs one cycle at now-5m (targets read from the
 * tailor_vpa_recommendation gauge: B's status equals A's, so B writes none).
 * Both read the same samples, so web's targets agree within one histogram bucket (5%). Without the
 * feature web would have only the last minutes (0.4 cores): a target far below.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { createRecommenderComponent, type RecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { startKubeSim } from 'kube-sim';
import { parseScenario } from 'kube-sim/scenario';
import { ensureDebianPackage } from '../../support/debian-package.ts';
import { startPrometheus } from '../../support/prometheus-server.ts';
import { MINUTE, usageFixture, type FixtureContainer } from '../../support/usage-fixture.ts';
import { VPA_CRD_MANIFESTS } from '../../../src/api/vpa-crd-manifests.ts';

const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };
const MiB = 1024 * 1024;
const SCENARIO = `
nodes: [{name: n, cpu: "16", memory: 64Gi}]
workloads:
  - {kind: Deployment, name: web, replicas: 2, containers: [{name: app, requests: {cpu: 250m, memory: 128Mi}}]}
  - {kind: Deployment, name: api, replicas: 2, containers: [{name: app, requests: {cpu: 250m, memory: 128Mi}}]}
  - {kind: Deployment, name: db, replicas: 1, containers: [{name: app, requests: {cpu: 250m, memory: 128Mi}}]}
`;
const CHECKPOINT = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalercheckpoints' };

/** web's target from the tailor_vpa_recommendation gauge (cores, bytes). */
async function webTarget(metrics: ControllerMetrics): Promise<{ cpu: number; memory: number }> {
  const out = { cpu: Number.NaN, memory: Number.NaN };
  for (const v of (await metrics.registry.getSingleMetric('tailor_vpa_recommendation')!.get()).values) {
    if (v.labels['vpa'] !== 'web' || v.labels['bound'] !== 'target') continue;
    if (v.labels['resource'] === 'cpu') out.cpu = v.value;
    if (v.labels['resource'] === 'memory') out.memory = v.value;
  }
  return out;
}

const vpaBody = (name: string) => ({
  apiVersion: 'autoscaling.k8s.io/v1',
  kind: 'VerticalPodAutoscaler',
  metadata: { name },
  spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, updatePolicy: { updateMode: 'Off' } },
});

test(
  'VPAs created after several cycles get, within one or two cycles (one read per cycle here), the recommendation they would have had from the start',
  { timeout: 180_000 },
  async (t) => {
    ensureDebianPackage('prometheus', ['prometheus', 'promtool']);
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const start = now - 3 * 60 * MINUTE;
    const turn = now - 60 * MINUTE;

    const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, scenario: parseScenario(SCENARIO) });
    t.after(() => sim.close());
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.server.kubeconfig());
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const pods = sim.server.store.list('pods', 'default').map((p) => p.metadata.name ?? '');
    const podsOf = (prefix: string) => pods.filter((p) => p.startsWith(`${prefix}-`));
    assert.equal(podsOf('web').length, 2);
    const container = (
      pod: string,
      cpu: (t: number) => number,
      memory: (t: number) => number,
      owner: FixtureContainer['owner'] = { kind: 'none' },
    ): FixtureContainer => ({
      namespace: 'default',
      pod,
      container: 'app',
      owner,
      cpuCores: cpu,
      memoryBytes: memory,
      requests: { cpu: 0.25, memory: 128 * MiB },
    });
    const series = [
      ...usageFixture(
        [
          ...podsOf('web').map((p) =>
            container(
              p,
              (at) => (at <= turn ? 1.5 : 0.4),
              (at) => (at <= turn ? 600 : 200) * MiB,
            ),
          ),
          ...podsOf('api').map((p) =>
            container(
              p,
              () => 0.2,
              () => 100 * MiB,
            ),
          ),
          ...podsOf('db').map((p) =>
            container(
              p,
              () => 0.3,
              () => 300 * MiB,
            ),
          ),
        ],
        { start, end: now },
      ),
      ...usageFixture(
        [
          container(
            'web-5d4-aaaaa',
            () => 2,
            () => 700 * MiB,
            { kind: 'Deployment', name: 'web', replicaSet: 'web-5d4' },
          ),
        ],
        { start, end: now - 120 * MINUTE },
      ),
    ];
    const prometheus = await startPrometheus({ series });
    t.after(() => prometheus.stop());

    /** Deletes every checkpoint in `default`; returns how many there were. */
    const deleteCheckpoints = async () => {
      const list = (await custom.listNamespacedCustomObject({ ...CHECKPOINT, namespace: 'default' })) as { items: Array<{ metadata: { name: string } }> };
      for (const c of list.items) await custom.deleteNamespacedCustomObject({ ...CHECKPOINT, namespace: 'default', name: c.metadata.name });
      return list.items.length;
    };
    const clean = async () => {
      for (const name of ['web', 'api', 'db']) await custom.deleteNamespacedCustomObject({ ...VPA, namespace: 'default', name }).catch(() => undefined);
      await deleteCheckpoints();
    };
    const waitSeen = async (loop: RecommenderComponent, name: string) => {
      const cache = (loop.loop as unknown as { vpaCache: { list(): Array<{ metadata: { name: string } }> } }).vpaCache;
      const deadline = Date.now() + 10_000;
      while (!cache.list().some((v) => v.metadata.name === name) && Date.now() < deadline) await delay(20);
    };

    for (const strategy of ['vpa', 'tailor'] as const) {
      await t.test(`--recommender-strategy ${strategy}`, async (st) => {
        const newLoop = () => {
          const { config } = resolveRunConfig(
            {
              components: 'recommender',
              prometheusUrl: prometheus.url,
              history: '4h',
              historyStep: '1m',
              historyBackfillVpas: '1',
              recommenderStrategy: strategy,
              logLevel: 'silent',
            },
            {},
          );
          const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
          const loop = createRecommenderComponent({ config, logger: silentLogger(), kubeConfig: kc, metrics, clock: () => now });
          st.after(() => loop.deactivate());
          return { loop, metrics };
        };
        const cycle = (loop: RecommenderComponent, at: number, n: number) => loop.runCycle({ now: at, cycle: n, signal: new AbortController().signal });
        await clean();

        // A: api's VPA from the start, web's and db's created before cycle 3; one read per cycle.
        const a = newLoop();
        const read = async (name: string) => (await custom.getNamespacedCustomObject({ ...VPA, namespace: 'default', name })) as VerticalPodAutoscaler;
        const fetching = async (name: string) => (await read(name)).status?.conditions?.find((c) => c.type === 'FetchingHistory')?.status === 'True';
        await custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: vpaBody('api') });
        await a.loop.activate();
        await cycle(a.loop, now - 30 * MINUTE, 1);
        await cycle(a.loop, now - 20 * MINUTE, 2);
        for (const name of ['web', 'db']) await custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: vpaBody(name) });
        await waitSeen(a.loop, 'web');
        await waitSeen(a.loop, 'db');
        await cycle(a.loop, now - 10 * MINUTE, 3);
        assert.deepEqual(
          [await fetching('web'), await fetching('db')].sort(),
          [false, true],
          'one VPA read at cycle 3 (--history-backfill-vpas 1), the other still FetchingHistory',
        );
        assert.match(await a.metrics.registry.getSingleMetricAsString('tailor_recommender_history_backfill_pending'), /pending 1\b/);
        await cycle(a.loop, now - 5 * MINUTE, 4);
        assert.deepEqual([await fetching('web'), await fetching('db')], [false, false], 'the other one read at cycle 4');
        const web = await read('web');
        const got = await webTarget(a.metrics);
        await a.loop.deactivate();

        // B, the reference: all VPAs from the start (no checkpoint), one cycle at cycle 4's time.
        assert.ok((await deleteCheckpoints()) > 0, 'A wrote checkpoints; B must not restore them');
        const b = newLoop();
        await b.loop.activate();
        await cycle(b.loop, now - 5 * MINUTE, 1);
        const want = await webTarget(b.metrics);
        await b.loop.deactivate();

        st.diagnostic(
          `web created before cycle 3 (state after cycle 4): cpu ${got.cpu} cores, memory ${got.memory} B; web there from the start: cpu ${want.cpu} cores, memory ${want.memory} B`,
        );
        assert.ok(
          web.status?.recommendation?.containerRecommendations?.[0]?.target.cpu,
          `web's status has a recommendation at its first cycle: ${JSON.stringify(web.status?.conditions)}`,
        );
        // The reference's CPU target is well above the last 10 minutes' 0.4 cores: web's pods used 1.5
        // cores for 2 h and the gone pod 2 cores for 1 h (its p90 is in the gone pod's samples).
        assert.ok(want.cpu > 1.5, `reference target from the full history: ${want.cpu} cores`);
        for (const resource of ['cpu', 'memory'] as const) {
          const ratio = got[resource] / want[resource];
          assert.ok(ratio >= 1 / 1.05 && ratio <= 1.05, `${resource}: ${got[resource]} vs ${want[resource]} (within one 5% bucket)`);
        }
        assert.match(await a.metrics.registry.getSingleMetricAsString('tailor_recommender_history_backfills_total'), /outcome="ok"} 2\b/);
        assert.match(
          await a.metrics.registry.getSingleMetricAsString('tailor_recommender_history_pods_attributed_total'),
          /attributed_total 1\b/,
          'the gone pod of web-5d4, attributed by the read',
        );
      });
    }
  },
);
