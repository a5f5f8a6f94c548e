/**
 * Issue 30 item 5, the recommender's half: an ordinary init container's usage never reaches a
 * VPA's recommendation, on kube-sim with the recommender component as `tailor run` builds it and a
 * usage source that, as cAdvisor does, reports every container of a pod, init containers too.
 *
 * Deployments `web` and `api`, each pod: `migrate` (an ordinary init container: 2 cores, 2 GiB while
 * it ran), `proxy` (a native sidecar: 50m, 30 MiB), `app` (10m, 50 MiB). `web`'s VPA is there from
 * the first cycle (its pods routed by the loop); `api`'s is created later, so its history is read
 * by the backfill (new-vpa-history.ts). Each status recommends `app` and `proxy` only, and app's
 * memory target is the 250 MiB per-pod floor split across those two: 125Mi (with `migrate`
 * counted it would get a recommendation of its own and app's floor would be a third).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { createRecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { cleanQuality, type ContainerSeries, type MetricsSource, type StepRange } from '../../../src/metrics/metrics-source.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { startKubeSim } from 'kube-sim';
import { parseScenario } from 'kube-sim/scenario';
import { VPA_CRD_MANIFESTS } from '../../../src/api/vpa-crd-manifests.ts';
import { offVpa, VPA_API } from '../../support/recommender-sim.ts';

const MiB = 1024 * 1024;
const USAGE: Record<string, { cpu: number; memory: number }> = {
  migrate: { cpu: 2, memory: 2048 * MiB },
  proxy: { cpu: 0.05, memory: 30 * MiB },
  app: { cpu: 0.01, memory: 50 * MiB },
};

type SimPod = { metadata: { name?: string }; spec?: { containers?: Array<{ name: string }>; initContainers?: Array<{ name: string }> } };

/** Every container of every pod in the store, init containers too, used USAGE at every step. */
function cadvisorLike(pods: (namespace: string) => readonly SimPod[]): MetricsSource {
  const series = (namespaces: readonly string[], range: StepRange, resource: 'cpu' | 'memory') => {
    const times: number[] = [];
    for (let t = range.start; t <= range.end; t += range.step) times.push(t);
    const data: ContainerSeries[] = namespaces.flatMap((namespace) =>
      pods(namespace).flatMap((p) =>
        [...(p.spec?.initContainers ?? []), ...(p.spec?.containers ?? [])].map((c) => ({
          key: { namespace, pod: p.metadata.name ?? '', container: c.name },
          times,
          values: times.map(() => USAGE[c.name]![resource]),
        })),
      ),
    );
    return { data, quality: cleanQuality() };
  };
  return {
    namespaceSizes: async (_at, _window, namespaces) => new Map((namespaces ?? ['default']).map((ns) => [ns, pods(ns).length * 3])),
    cpuUsage: async (namespaces, range) => series(namespaces, range, 'cpu'),
    memoryPeaks: async (namespaces, range) => series(namespaces, range, 'memory'),
    oomKills: async () => ({ data: [], quality: cleanQuality() }),
    owners: async () => [],
    resources: async () => [],
  };
}

test(
  "an ordinary init container gets no recommendation and leaves app's alone; the native sidecar gets one (loop routes and backfill)",
  { timeout: 120_000 },
  async (t) => {
    const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, scenario: parseScenario('nodes: [{name: n, cpu: "8", memory: 32Gi}]\n') });
    t.after(() => sim.close());
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.server.kubeconfig());
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    for (const name of ['web', 'api']) {
      await apps.createNamespacedDeployment({
        namespace: 'default',
        body: {
          metadata: { name },
          spec: {
            replicas: 1,
            selector: { matchLabels: { app: name } },
            template: {
              metadata: { labels: { app: name } },
              spec: {
                initContainers: [
                  { name: 'migrate', image: 'migrate' },
                  { name: 'proxy', image: 'envoy', restartPolicy: 'Always' },
                ],
                containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' } } }],
              },
            },
          },
        },
      });
    }
    const pods = (namespace: string) => sim.server.store.list('pods', namespace) as unknown as SimPod[];
    for (let i = 0; i < 100 && pods('default').length < 2; i++) await delay(50);
    assert.equal(pods('default').length, 2);

    const { config } = resolveRunConfig(
      { components: 'recommender', prometheusUrl: 'http://127.0.0.1:9', history: '2h', historyStep: '1m', recommenderStrategy: 'vpa', logLevel: 'silent' },
      {},
    );
    const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
    const loop = createRecommenderComponent({ config, logger: silentLogger(), kubeConfig: kc, metrics, clock: Date.now }, { source: cadvisorLike(pods) });
    t.after(() => loop.deactivate());
    const read = async (name: string) => (await custom.getNamespacedCustomObject({ ...VPA_API, namespace: 'default', name })) as VerticalPodAutoscaler;
    const signal = new AbortController().signal;
    const now = Math.floor(Date.now() / 60_000) * 60_000;
    let cycle = 0;
    /** Cycles until the VPA has a recommendation (the VPA watch delivers it first). */
    const recommended = async (name: string, at: number) => {
      for (let i = 0; i < 50; i++) {
        await loop.runCycle({ now: at, cycle: ++cycle, signal });
        const recs = (await read(name)).status?.recommendation?.containerRecommendations;
        if (recs?.length) return recs;
        await delay(100);
      }
      assert.fail(`${name} got no recommendation: ${JSON.stringify((await read(name)).status)}`);
    };

    await custom.createNamespacedCustomObject({ ...VPA_API, namespace: 'default', body: offVpa('web') });
    await loop.activate();
    const web = await recommended('web', now);
    assert.deepEqual(
      web.map((c) => c.containerName),
      ['app', 'proxy'],
    );
    assert.equal(web[0]!.target.memory, '125Mi', "app's target: the 250 MiB floor split across app and proxy only");

    // api's VPA comes later: its history is read by the backfill.
    await custom.createNamespacedCustomObject({ ...VPA_API, namespace: 'default', body: offVpa('api') });
    const api = await recommended('api', now + 60_000);
    assert.deepEqual(
      api.map((c) => c.containerName),
      ['app', 'proxy'],
    );
    assert.equal(api[0]!.target.memory, '125Mi');
    const backfills = await metrics.registry.getSingleMetric('tailor_recommender_history_backfills_total')!.get();
    assert.equal(backfills.values.find((v) => v.labels['outcome'] === 'ok')?.value, 1, "api's history was read by the backfill");
  },
);
