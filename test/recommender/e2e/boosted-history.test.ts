/**
 * The history read at start-up and for a VPA created later leaves out boosted start-ups (decision
 * 0234), on kube-sim with a real Prometheus holding the history.
 *
 * Deployment `web` asks for a 3x boost until Ready + 30 s. Its current pod started 40 min ago,
 * used 2 cores for its first 5 min (boosted) and 0.3 cores since; the webhook's record is on it,
 * and it turned Ready at 35.5 min ago. Two pods of an earlier ReplicaSet (gone) ran from 60 to 40
 * min ago, also at 2 cores for their first 5 min. Steady usage is 0.3 cores throughout.
 *
 * Worked numbers: 80 one-minute CPU samples, 15 of them boosted (19%, above the p90's 10%): with
 * them the target is about 2.3 cores (2 cores + 15%); without them about 0.35 cores.
 * - A (the backfill): the VPA on `web` is created after the recommender's first cycle, so its
 *   history is read by history-backfill (current pod by its record, gone pods by the VPA's boost
 *   window from their first sample);
 * - B (a restart, the bootstrap): a new recommender with the VPA from the start and no checkpoint.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { createRecommenderComponent, type RecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { ensureDebianPackage } from '../../support/debian-package.ts';
import { startPrometheus } from '../../support/prometheus-server.ts';
import { MINUTE, usageFixture, type FixtureContainer } from '../../support/usage-fixture.ts';
import { offVpa, startRecommenderSim, VPA_API } from '../../support/recommender-sim.ts';

const MiB = 1024 * 1024;
const CHECKPOINT = { ...VPA_API, plural: 'verticalpodautoscalercheckpoints' };
const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

test(
  'boosted start-ups are left out of the history read by the backfill and by a restarted recommender (current pods by their record, gone pods by the boost window)',
  { timeout: 180_000 },
  async (t) => {
    ensureDebianPackage('prometheus', ['prometheus', 'promtool']);
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const { sim, kc, custom } = await startRecommenderSim(t, [
      { name: 'web', replicas: 1, cpu: '250m', memory: '128Mi' },
      { name: 'api', replicas: 1, cpu: '250m', memory: '128Mi' },
    ]);
    const podName = (prefix: string) =>
      sim.server.store
        .list('pods', 'default')
        .map((p) => p.metadata.name ?? '')
        .find((n) => n.startsWith(`${prefix}-`))!;
    const web = podName('web');
    const api = podName('api');

    // The current pod as the webhook left it: boosted, started 40 min ago, Ready 35.5 min ago.
    const started = now - 40 * MINUTE;
    sim.server.store.mutate('pods', 'default', web, (pod) => {
      const p = pod as {
        metadata: { annotations?: Record<string, string> };
        status?: { startTime?: string; conditions?: Array<{ type: string; status: string; lastTransitionTime?: string }> };
      };
      p.metadata.annotations = {
        ...p.metadata.annotations,
        'tailor.dev/startup-cpu-boost-record': '{"until":"ready+30s","containers":{"app":{"request":250}}}',
      };
      p.status = {
        ...p.status,
        startTime: rfc3339(started),
        conditions: (p.status?.conditions ?? []).map((c) =>
          c.type === 'Ready' ? { ...c, status: 'True', lastTransitionTime: rfc3339(started + 4.5 * MINUTE) } : c,
        ),
      };
    });

    const boostedFor5Min = (from: number) => (at: number) => (at <= from + 5 * MINUTE ? 2 : 0.3);
    const container = (pod: string, from: number, owner: FixtureContainer['owner']): FixtureContainer => ({
      namespace: 'default',
      pod,
      container: 'app',
      owner,
      cpuCores: boostedFor5Min(from),
      memoryBytes: () => 200 * MiB,
      requests: { cpu: 0.25, memory: 128 * MiB },
    });
    const gone = now - 60 * MINUTE;
    const series = [
      ...usageFixture([container(web, started, { kind: 'none' })], { start: started, end: now }),
      ...usageFixture(
        [
          container('web-5d4-aaaaa', gone, { kind: 'Deployment', name: 'web', replicaSet: 'web-5d4' }),
          container('web-5d4-bbbbb', gone, { kind: 'Deployment', name: 'web', replicaSet: 'web-5d4' }),
        ],
        { start: gone, end: started },
      ),
      ...usageFixture([{ namespace: 'default', pod: api, container: 'app', owner: { kind: 'none' }, cpuCores: () => 0.2, memoryBytes: () => 100 * MiB }], {
        start: now - 2 * 60 * MINUTE,
        end: now,
      }),
    ];
    const prometheus = await startPrometheus({ series });
    t.after(() => prometheus.stop());

    const vpa = offVpa('web');
    const boosted = {
      ...vpa,
      metadata: { ...vpa.metadata, annotations: { 'tailor.dev/startup-cpu-boost': '3x', 'tailor.dev/startup-cpu-boost-duration': 'ready+30s' } },
    };
    const newLoop = () => {
      const { config } = resolveRunConfig(
        { components: 'recommender', prometheusUrl: prometheus.url, history: '2h', historyStep: '1m', logLevel: 'silent' },
        {},
      );
      const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
      const loop = createRecommenderComponent({ config, logger: silentLogger(), kubeConfig: kc, metrics, clock: () => now });
      t.after(() => loop.deactivate());
      return { loop, metrics };
    };
    const cycle = (loop: RecommenderComponent, at: number, n: number) => loop.runCycle({ now: at, cycle: n, signal: new AbortController().signal });
    /** web's cpu target (millicores) from this recommender's tailor_vpa_recommendation gauge. */
    const webCpu = async (metrics: ControllerMetrics) => {
      const v = (await metrics.registry.getSingleMetric('tailor_vpa_recommendation')!.get()).values.find(
        (x) => x.labels['vpa'] === 'web' && x.labels['bound'] === 'target' && x.labels['resource'] === 'cpu',
      );
      assert.ok(v, 'web has a recommendation');
      return Math.round(v.value * 1000);
    };
    const seen = async (loop: RecommenderComponent, name: string) => {
      const cache = (loop.loop as unknown as { vpaCache: { list(): Array<{ metadata: { name: string } }> } }).vpaCache;
      const deadline = Date.now() + 10_000;
      while (!cache.list().some((v) => v.metadata.name === name) && Date.now() < deadline) await delay(20);
    };

    // A: api's VPA from the start (the feed reads the namespace), web's created later: the backfill.
    await custom.createNamespacedCustomObject({ ...VPA_API, namespace: 'default', body: offVpa('api') });
    const a = newLoop();
    await a.loop.activate();
    await cycle(a.loop, now - 2 * MINUTE, 1);
    await custom.createNamespacedCustomObject({ ...VPA_API, namespace: 'default', body: boosted });
    await seen(a.loop, 'web');
    await cycle(a.loop, now - MINUTE, 2);
    const backfilled = await webCpu(a.metrics);
    await a.loop.deactivate();

    // B: a restart with the VPA there from the start and no checkpoint: the bootstrap read.
    const checkpoints = (await custom.listNamespacedCustomObject({ ...CHECKPOINT, namespace: 'default' })) as { items: Array<{ metadata: { name: string } }> };
    assert.ok(checkpoints.items.length > 0, 'A wrote checkpoints; B must not restore them');
    for (const c of checkpoints.items) await custom.deleteNamespacedCustomObject({ ...CHECKPOINT, namespace: 'default', name: c.metadata.name });
    const b = newLoop();
    await b.loop.activate();
    await cycle(b.loop, now, 1);
    const restarted = await webCpu(b.metrics);

    t.diagnostic(`web's cpu target: backfill ${backfilled}m, restart ${restarted}m (steady usage 300m; boosted start-ups at 2000m)`);
    assert.ok(backfilled >= 300 && backfilled <= 450, `backfill: about 0.35 cores from the steady usage, the boosted start-ups left out: ${backfilled}m`);
    assert.ok(restarted >= 300 && restarted <= 450, `restart: about 0.35 cores from the steady usage, the boosted start-ups left out: ${restarted}m`);
  },
);
