/**
 * A container OOM-killed right at every start (the chaos lane's `oom-1`): it never lives long
 * enough for a usage sample, so the only evidence is pod status (`lastState.terminated.reason:
 * OOMKilled`). kube-sim runs the Deployment (requests 30m / 48Mi, limits 120m / 96Mi, a working
 * set of 200Mi from the start: killed at every tick) and the recommender component as `tailor run`
 * builds it reads a usage source with no sample at all. Upstream (since VPA 0.13,
 * kubernetes/autoscaler#5326) recommends such a container from its OOM kills; so does Tailor
 * (decision 0298): memory from the kill's bump of the request, CPU at the floor, raised to
 * minAllowed, and a LowConfidence condition that says the recommendation rests on OOM kills only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import { parseMemory } from 'kube-basics/quantity';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { createRecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { cleanQuality, type MetricsSource } from '../../../src/metrics/metrics-source.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { startKubeSim } from 'kube-sim';
import { parseScenario } from 'kube-sim/scenario';
import { VPA_CRD_MANIFESTS } from '../../../src/api/vpa-crd-manifests.ts';
import { VPA_API } from '../../support/recommender-sim.ts';

const MiB = 1024 * 1024;

/** Prometheus with no sample of any container (each one was killed before a scrape). */
const NO_SAMPLES: MetricsSource = {
  namespaceSizes: async (_at, _window, namespaces) => new Map((namespaces ?? ['default']).map((ns) => [ns, 0])),
  cpuUsage: async () => ({ data: [], quality: cleanQuality() }),
  memoryPeaks: async () => ({ data: [], quality: cleanQuality() }),
  oomKills: async () => ({ data: [], quality: cleanQuality() }),
  owners: async () => [],
  resources: async () => [],
};

type PodStatus = { status?: { containerStatuses?: Array<{ restartCount?: number; lastState?: { terminated?: { reason?: string; finishedAt?: string } } }> } };

for (const strategy of ['vpa', 'tailor-low-churn'] as const) {
  test(`${strategy}: a container OOM-killed at every start, with no usage sample, is recommended from its kills`, { timeout: 120_000 }, async (t) => {
    const sim = await startKubeSim({
      crdManifests: VPA_CRD_MANIFESTS,
      scenario: parseScenario(`
nodes: [{name: n, cpu: "8", memory: 32Gi}]
workloads:
  - kind: Deployment
    name: oom-1
    replicas: 1
    containers:
      - name: app
        requests: {cpu: 30m, memory: 48Mi}
        limits: {cpu: 120m, memory: 96Mi}
        usage: {cpu: "steady(20m)", memory: "steady(200Mi)"}
`),
    });
    t.after(() => sim.close());
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.server.kubeconfig());
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    await custom.createNamespacedCustomObject({
      ...VPA_API,
      namespace: 'default',
      body: {
        apiVersion: 'autoscaling.k8s.io/v1',
        kind: 'VerticalPodAutoscaler',
        metadata: { name: 'oom-1' },
        spec: {
          targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'oom-1' },
          // The lane's mode is InPlaceOrRecreate; no updater runs here, and the recommender reads no mode.
          updatePolicy: { updateMode: 'InPlaceOrRecreate' },
          resourcePolicy: {
            containerPolicies: [{ containerName: '*', minAllowed: { cpu: '30m', memory: '32Mi' }, maxAllowed: { cpu: '60m', memory: '128Mi' } }],
          },
        },
      },
    });
    const pods = () => sim.server.store.list('pods', 'default') as unknown as PodStatus[];
    const kills = () => pods().flatMap((p) => (p.status?.containerStatuses ?? []).map((s) => s.lastState?.terminated?.finishedAt ?? ''));
    const oomKilled = () =>
      pods().some((p) => p.status?.containerStatuses?.some((s) => s.lastState?.terminated?.reason === 'OOMKilled' && (s.restartCount ?? 0) > 0));
    for (let i = 0; i < 20 && !oomKilled(); i++) await sim.cluster.tick(5_000);
    assert.ok(oomKilled(), `the container was OOM-killed: ${JSON.stringify(pods().map((p) => p.status))}`);

    const { config } = resolveRunConfig(
      { components: 'recommender', prometheusUrl: 'http://127.0.0.1:9', history: '10m', historyStep: '10s', recommenderStrategy: strategy, logLevel: 'silent' },
      {},
    );
    const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
    const loop = createRecommenderComponent(
      { config, logger: silentLogger(), kubeConfig: kc, metrics, clock: () => sim.cluster.clock.now() },
      { source: NO_SAMPLES },
    );
    t.after(() => loop.deactivate());
    await loop.activate();
    const signal = new AbortController().signal;
    const read = async () => (await custom.getNamespacedCustomObject({ ...VPA_API, namespace: 'default', name: 'oom-1' })) as VerticalPodAutoscaler;
    let cycle = 0;
    // Several cycles, each after more kills (a new finishedAt each time): the status is read once the watches have delivered.
    const seen = new Set<string>();
    let vpa = await read();
    for (let i = 0; i < 6; i++) {
      await sim.cluster.tick(60_000);
      for (const k of kills()) seen.add(k);
      await loop.runCycle({ now: sim.cluster.clock.now(), cycle: ++cycle, signal });
      await delay(50);
      vpa = await read();
    }
    assert.ok(seen.size >= 3, `several kills with different finishedAt: ${[...seen].join(', ')}`);
    const conditions = Object.fromEntries((vpa.status?.conditions ?? []).map((c) => [c.type, c]));
    t.diagnostic(`${strategy}: ${JSON.stringify(vpa.status)}`);
    assert.equal(conditions['RecommendationProvided']?.status, 'True', JSON.stringify(vpa.status));
    const app = vpa.status?.recommendation?.containerRecommendations?.find((c) => c.containerName === 'app');
    assert.ok(app, JSON.stringify(vpa.status));
    // CPU: no usage seen, so the floor (25m), raised to minAllowed.
    assert.equal(app.target.cpu, '30m');
    // Memory: above the request bumped at the kill (48Mi: x1.2 / +100Mi upstream, x1.5 tailor), at most maxAllowed.
    const memory = parseMemory(app.target.memory!);
    assert.ok(memory >= 72 * MiB && memory <= 128 * MiB, `memory target ${app.target.memory}`);
    assert.equal(conditions['LowConfidence']?.status, 'True');
    assert.equal(conditions['LowConfidence']?.reason, 'OomKillsOnly');
    assert.match(conditions['LowConfidence']!.message!, /OOM kills only.*: app/);
  });
}
