/**
 * History of pods already gone at bootstrap, on a real Prometheus with backfilled history: two
 * pods of an earlier ReplicaSet of Deployment `web` ran from 3 h to 1 h ago at 1 core and are gone;
 * the Deployment's current pods (in kube-sim) have no history yet. The owner series
 * (kube_pod_owner -> ReplicaSet, kube_replicaset_owner -> Deployment) attribute the old pods'
 * history to the VPA on `web`; a decoy pod of another Deployment at 3 cores is not attributed.
 *
 * Worked number: 2 pods x 120 one-minute samples at 1.0 core -> the p90 lands in the histogram
 * bucket around 1 core, +15% margin -> a target of about 1.15 cores (without the attribution
 * there would be no sample at all, and no recommendation).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { createRecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { ensureDebianPackage } from '../../support/debian-package.ts';
import { startPrometheus } from '../../support/prometheus-server.ts';
import { MINUTE, usageFixture, type FixtureContainer } from '../../support/usage-fixture.ts';
import { offVpa, startRecommenderSim, VPA_API } from '../../support/recommender-sim.ts';

const VPA = VPA_API;
const MiB = 1024 * 1024;

test('the Prometheus history of pods gone before the bootstrap counts for the VPA of their workload, through owner series', { timeout: 120_000 }, async (t) => {
  ensureDebianPackage('prometheus', ['prometheus', 'promtool']);
  const now = Math.floor(Date.now() / MINUTE) * MINUTE;
  const start = now - 3 * 60 * MINUTE;
  const end = now - 60 * MINUTE;
  const old = (pod: string, owner: FixtureContainer['owner'], cores: number): FixtureContainer => ({
    namespace: 'default',
    pod,
    container: 'app',
    owner,
    cpuCores: () => cores,
    memoryBytes: () => 300 * MiB,
    requests: { cpu: 0.25, memory: 128 * MiB },
  });
  const series = usageFixture(
    [
      old('web-5d4-aaaaa', { kind: 'Deployment', name: 'web', replicaSet: 'web-5d4' }, 1),
      old('web-5d4-bbbbb', { kind: 'Deployment', name: 'web', replicaSet: 'web-5d4' }, 1),
      old('other-9f1-ccccc', { kind: 'Deployment', name: 'other', replicaSet: 'other-9f1' }, 3),
    ],
    { start, end },
  );
  const prometheus = await startPrometheus({ series });
  t.after(() => prometheus.stop());
  const { sim, kc, custom } = await startRecommenderSim(t, [{ name: 'web', replicas: 2, cpu: '250m', memory: '128Mi' }]);
  await custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: offVpa('web') });
  const current = sim.server.store.list('pods', 'default').map((p) => p.metadata.name);
  assert.ok(current.length === 2 && current.every((n) => !n?.startsWith('web-5d4')), `the current pods are others: ${current.join(', ')}`);

  const { config } = resolveRunConfig({ components: 'recommender', prometheusUrl: prometheus.url, history: '4h', historyStep: '1m', logLevel: 'silent' }, {});
  const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
  const loop = createRecommenderComponent({ config, logger: silentLogger(), kubeConfig: kc, metrics, clock: () => now });
  t.after(() => loop.deactivate());
  await loop.activate();
  await loop.runCycle({ now, cycle: 1, signal: new AbortController().signal });

  assert.match(
    await metrics.registry.getSingleMetricAsString('tailor_recommender_history_pods_attributed_total'),
    /tailor_recommender_history_pods_attributed_total 2\b/,
  );
  t.diagnostic(`samples read: ${loop.lastSync?.cpuSamples} CPU (the decoy's among them, not routed)`);
  const web = (await custom.getNamespacedCustomObject({ ...VPA, namespace: 'default', name: 'web' })) as VerticalPodAutoscaler;
  const provided = web.status?.conditions?.find((c) => c.type === 'RecommendationProvided');
  assert.equal(provided?.status, 'True', JSON.stringify(web.status?.conditions));
  const target = web.status!.recommendation!.containerRecommendations![0]!.target;
  t.diagnostic(`web target from the gone pods' history: ${JSON.stringify(target)}`);
  const cpu = target.cpu!.endsWith('m') ? Number.parseInt(target.cpu!, 10) : Number(target.cpu) * 1000;
  assert.ok(cpu >= 1000 && cpu <= 1300, `about 1.15 cores from the old pods at 1 core (the decoy at 3 cores is not counted): ${target.cpu}`);
});
