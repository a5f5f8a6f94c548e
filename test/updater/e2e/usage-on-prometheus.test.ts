/**
 * The updater's memory rules with a real Prometheus, end to end: kube-sim runs the workloads in
 * real time, Debian's Prometheus scrapes its cAdvisor endpoint every second, and the updater
 * component, built as `tailor run --components updater --prometheus-url ...` builds it, reads
 * recent memory from there each cycle. A container whose memory grows toward its limit gets its
 * memory raised in place before the OOM kill, with an event; a memory limit goes down no further
 * than the observed peak + margin; with Prometheus stopped, the loop goes on without usage and
 * says so. The pressure window is 5 s here instead of 2 min, so the test takes about half a minute.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import { parseMemory } from 'kube-basics/quantity';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { startLocalPrometheus } from '../../../src/local-prometheus/prometheus-process.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { startKubeSim } from 'kube-sim';
import { parseScenario } from 'kube-sim/scenario';
import { createUpdaterComponent } from '../../../src/controller/updater-component.ts';
import { VPA_CRD_MANIFESTS } from '../../../src/api/vpa-crd-manifests.ts';

const MiB = 1024 * 1024;
const VPA = { group: 'autoscaling.k8s.io', version: 'v1', namespace: 'default', plural: 'verticalpodautoscalers' };

async function promValue(url: string, query: string): Promise<number | undefined> {
  const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(query)}`);
  const body = (await res.json()) as { data?: { result?: { value?: [number, string] }[] } };
  const v = body.data?.result?.[0]?.value?.[1];
  return v === undefined ? undefined : Number(v);
}

test('updater on kube-sim with a real Prometheus: memory raised before the OOM kill, limits never below the observed peak', { timeout: 240_000 }, async (t) => {
  const scenario = parseScenario(`
nodes: [{name: n, cpu: "8", memory: 32Gi}]
workloads:
  - kind: Deployment
    name: steady
    replicas: 1
    containers:
      - name: app
        requests: {cpu: 200m, memory: 512Mi}
        limits: {memory: 1Gi}
        usage: {cpu: "steady(100m)", memory: "steady(700Mi)"}
`);
  const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, scenario, speed: 1, tickMs: 200 });
  t.after(() => sim.close());
  const target = `127.0.0.1:${sim.server.port}`;
  const prometheus = await startLocalPrometheus({
    config: [
      'global: {scrape_interval: 1s}',
      'scrape_configs:',
      `  - {job_name: cadvisor, scheme: https, tls_config: {insecure_skip_verify: true}, metrics_path: /metrics/cadvisor, static_configs: [{targets: ['${target}']}]}`,
    ].join('\n'),
  });
  t.after(() => prometheus.stop());

  const kc = new k8s.KubeConfig();
  kc.loadFromString(sim.server.kubeconfig());
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const apps = kc.makeApiClient(k8s.AppsV1Api);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  const { config } = resolveRunConfig({ components: 'updater', prometheusUrl: prometheus.url, prometheusRetries: '0', logLevel: 'silent' }, {});
  const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
  const updater = createUpdaterComponent(
    { config, logger: silentLogger(), kubeConfig: kc, metrics, clock: Date.now },
    { options: { memoryPressureWindowMs: 5000 } },
  );
  await updater.activate!(new AbortController().signal);
  t.after(() => updater.deactivate!());
  let cycle = 0;
  const runCycle = () => updater.runCycle({ now: Date.now(), cycle: ++cycle, signal: new AbortController().signal });
  const podOf = async (app: string) =>
    (await core.listNamespacedPod({ namespace: 'default', labelSelector: `app=${app}` })).items.find((p) => !p.metadata!.deletionTimestamp)!;
  const createVpa = async (name: string, rec: object, maxAllowed?: object) => {
    await custom.createNamespacedCustomObject({
      ...VPA,
      body: {
        apiVersion: 'autoscaling.k8s.io/v1',
        kind: 'VerticalPodAutoscaler',
        metadata: { name },
        spec: {
          targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
          updatePolicy: { updateMode: 'InPlaceOrRecreate' },
          ...(maxAllowed ? { resourcePolicy: { containerPolicies: [{ containerName: '*', maxAllowed }] } } : {}),
        },
      },
    });
    await custom.patchNamespacedCustomObjectStatus(
      { ...VPA, name, body: { status: { recommendation: { containerRecommendations: [{ containerName: 'app', ...rec }] } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
  };

  // The steady container's history is in Prometheus before its VPA asks for less memory.
  const steadyWss = 'container_memory_working_set_bytes{namespace="default",pod=~"steady-.*",container="app"}';
  for (let i = 0; i < 120 && ((await promValue(prometheus.url, `count_over_time(${steadyWss}[1m])`)) ?? 0) < 3; i++) await delay(500);
  await createVpa('steady', {
    target: { cpu: '200m', memory: '128Mi' },
    lowerBound: { cpu: '100m', memory: '100Mi' },
    upperBound: { cpu: '400m', memory: '200Mi' },
  });

  // grow: 220 MiB + 1 MiB/s against a 256 MiB limit: above 90% (230.4 MiB) after 10.4 s, OOM-killed after 36 s if nothing is done.
  await apps.createNamespacedDeployment({
    namespace: 'default',
    body: {
      metadata: { name: 'grow' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'grow' } },
        template: {
          metadata: { labels: { app: 'grow' }, annotations: { 'tailor.dev/sim-usage': JSON.stringify({ app: { cpu: '50m', memory: 'leak(220Mi, 1Mi/s)' } }) } },
          spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '200Mi' }, limits: { memory: '256Mi' } } }] },
        },
      },
    },
  });
  await createVpa(
    'grow',
    { target: { cpu: '100m', memory: '200Mi' }, lowerBound: { cpu: '50m', memory: '150Mi' }, upperBound: { cpu: '200m', memory: '300Mi' } },
    { memory: '1Gi' },
  );

  const started = Date.now();
  let grown: k8s.V1Pod | undefined;
  let oomKilled = false;
  while (Date.now() - started < 120_000) {
    await runCycle();
    const pod = await podOf('grow');
    oomKilled = (pod?.status?.containerStatuses ?? []).some((s) => s.lastState?.terminated?.reason === 'OOMKilled');
    if (oomKilled) break;
    if (pod?.status?.containerStatuses?.[0]?.resources?.limits?.memory === '384Mi') {
      grown = pod;
      break;
    }
    await delay(1000);
  }
  const raisedAfter = (Date.now() - started) / 1000;
  t.diagnostic(`grow: memory raised in place ${raisedAfter.toFixed(1)} s after the Deployment was created`);
  assert.equal(oomKilled, false, 'never OOM-killed');
  assert.ok(grown, 'the memory limit was raised');
  // request 200Mi x 1.5 = 300Mi, the limit scaled with it: 256Mi x 1.5 = 384Mi; the container kept running
  assert.deepEqual(JSON.parse(JSON.stringify(grown.status!.containerStatuses![0]!.resources)), {
    requests: { cpu: '100m', memory: '300Mi' },
    limits: { memory: '384Mi' },
  });
  assert.equal(grown.status!.containerStatuses![0]!.restartCount, 0);
  const events = (await core.listNamespacedEvent({ namespace: 'default' })).items;
  const raised = events.find((e) => e.involvedObject.kind === 'Pod' && e.involvedObject.name === grown!.metadata!.name && e.reason === 'ResizedInPlace');
  assert.match(raised!.message!, /^MemoryPressure: .*working set/);
  assert.ok(events.some((e) => e.involvedObject.kind === 'VerticalPodAutoscaler' && e.involvedObject.name === 'grow' && e.reason === 'ResizedInPlace'));

  // steady: the request went down a step (512Mi -> 256Mi); the limit only to the observed peak + 15%.
  const steady = await podOf('steady');
  const peak = (await promValue(prometheus.url, `max_over_time(${steadyWss}[10m])`))!;
  const limit = parseMemory(steady.spec!.containers[0]!.resources!.limits!.memory!);
  t.diagnostic(`steady: observed peak ${peak / MiB} MiB, memory limit 1024 MiB -> ${(limit / MiB).toFixed(1)} MiB`);
  assert.equal(steady.spec!.containers[0]!.resources!.requests!.memory, '256Mi');
  assert.ok(limit >= peak * 1.15 && limit < 1024 * MiB, `limit ${limit} vs peak ${peak}`);
  const exported = await metrics.registry.metrics();
  assert.match(exported, /tailor_updater_usage_available 1/);
  t.diagnostic(
    exported
      .split('\n')
      .filter(
        (l) => l.startsWith('tailor_updater_recommendation_to_applied_seconds_count') || l.startsWith('tailor_updater_recommendation_to_applied_seconds_sum'),
      )
      .join('; '),
  );
  // the status here is written without a field manager (no managedFields): measured from the first sight
  assert.match(exported, /tailor_updater_recommendation_to_applied_seconds_count\{path="in-place",since="first-seen"\} 2/);

  // Prometheus down: the cycle still runs, without usage, and says so.
  await prometheus.stop();
  await runCycle();
  const down = await metrics.registry.metrics();
  assert.match(down, /tailor_updater_usage_available 0/);
  assert.match(down, /tailor_updater_usage_reads_total\{outcome="failed"\} 1/);
});
