/**
 * End to end: kube-sim runs the workloads in real time, a real Prometheus scrapes its cAdvisor and
 * kube-state endpoints every second, and the recommender component (as `tailor run` builds it)
 * reads Prometheus with a 2 s step and writes VPA status and checkpoints to the sim's API server.
 * Cycles are run by the test (the schedule is tested with the controller), at the real time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import { parseMemory } from 'kube-basics/quantity';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { createRecommenderComponent, type RecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { startKubeSim } from 'kube-sim';
import { parseScenario } from 'kube-sim/scenario';
import { stopChild, track } from '../../support/child-processes.ts';
import { ensureDebianPackage } from '../../support/debian-package.ts';
import { freePort } from '../../support/free-port.ts';
import { waitReady } from '../../support/prometheus-server.ts';
import { VPA_CRD_MANIFESTS } from '../../../src/api/vpa-crd-manifests.ts';
import { duration } from '../../../src/metrics/promql-selector.ts';

const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };
const CHECKPOINTS = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalercheckpoints' };

function vpa(name: string, target: string): object {
  return {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, updatePolicy: { updateMode: 'Off' } },
  };
}

test('recommendations, OOM reaction, conflicts, checkpoints and a restart on kube-sim with a real Prometheus', { timeout: 180_000 }, async (t) => {
  ensureDebianPackage('prometheus', ['prometheus', 'promtool']);
  const scenario = parseScenario(`
nodes: [{name: n, cpu: "8", memory: 32Gi}]
workloads:
  - kind: Deployment
    name: web
    replicas: 2
    containers:
      - name: app
        requests: {cpu: 250m, memory: 128Mi}
        limits: {memory: 512Mi}
        usage: {cpu: "steady(300m)", memory: "steady(100Mi)"}
  - kind: Deployment
    name: hog
    replicas: 1
    containers:
      - name: app
        requests: {cpu: 100m, memory: 128Mi}
        limits: {memory: 256Mi}
        usage: {cpu: "steady(100m)", memory: "step(100Mi, 400Mi, 40s)"}
`);
  const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, scenario, speed: 1, tickMs: 200 });
  t.after(() => sim.close());
  const dir = await mkdtemp(join(tmpdir(), 'tailor-recloop-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const target = `127.0.0.1:${sim.server.port}`;
  await writeFile(
    join(dir, 'prometheus.yml'),
    [
      'global: {scrape_interval: 1s}',
      'scrape_configs:',
      ...['cadvisor', 'kube-state'].map(
        (path) =>
          `  - {job_name: ${path}, scheme: https, tls_config: {insecure_skip_verify: true}, metrics_path: /metrics/${path}, static_configs: [{targets: ['${target}']}]}`,
      ),
    ].join('\n'),
  );
  const port = await freePort();
  const prometheus = spawn(
    'prometheus',
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  track(prometheus);
  let promErr = '';
  prometheus.stderr.on('data', (d: Buffer) => (promErr = (promErr + d.toString()).slice(-5000)));
  t.after(() => stopChild(prometheus));
  await waitReady(`http://127.0.0.1:${port}/-/ready`, prometheus, () => promErr, 60_000);

  const kc = new k8s.KubeConfig();
  kc.loadFromString(sim.server.kubeconfig());
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  await custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: vpa('web', 'web') });
  await custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: vpa('hog', 'hog') });
  await custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: vpa('ghost', 'nothing-here') });
  // A later creationTimestamp than `web` (second resolution, on the sim's clock, which a loaded
  // event loop holds back): wait for the sim's next second rather than for a fixed real time.
  const webCreated = Date.parse(
    ((await custom.getNamespacedCustomObject({ ...VPA, namespace: 'default', name: 'web' })) as VerticalPodAutoscaler).metadata.creationTimestamp!,
  );
  await pollUntil('the sim clock passes the next second', () => sim.cluster.clock.now() >= Math.floor(webCreated / 1000) * 1000 + 1000, 30_000);
  await custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: vpa('web-again', 'web') });
  const readVpa = async (name: string) => (await custom.getNamespacedCustomObject({ ...VPA, namespace: 'default', name })) as VerticalPodAutoscaler;
  const condition = (v: VerticalPodAutoscaler, type: string) => v.status?.conditions?.find((c) => c.type === type);
  const targetOf = (v: VerticalPodAutoscaler) => v.status?.recommendation?.containerRecommendations?.find((c) => c.containerName === 'app')?.target;

  // Upstream's algorithm (not the default tailor-low-churn): the targets below are its p90 + 15%.
  const { config } = resolveRunConfig(
    {
      components: 'recommender',
      prometheusUrl: `http://127.0.0.1:${port}`,
      recommenderStrategy: 'vpa',
      history: '10m',
      historyStep: '2s',
      checkpointGcInterval: '1s',
      logLevel: 'silent',
    },
    {},
  );
  let metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
  const start = (): RecommenderComponent => {
    metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
    return createRecommenderComponent({ config, logger: silentLogger(), kubeConfig: kc, metrics, clock: Date.now });
  };
  const controller = new AbortController();
  let loop = start();
  t.after(() => loop.deactivate());
  let cycle = 0;
  const runCycle = () => loop.runCycle({ now: Date.now(), cycle: ++cycle, signal: controller.signal });
  await loop.activate();

  // History becomes available once Prometheus holds a few scrapes of both workloads: wait for
  // that (not for a fixed time, which a loaded machine overruns), then count two cycles.
  await historyAvailable(`http://127.0.0.1:${port}`, ['web', 'hog'], 6, 90_000);
  await runCycle();
  await runCycle();
  const web = await readVpa('web');
  assert.equal(condition(web, 'RecommendationProvided')?.status, 'True', JSON.stringify(web.status));
  const cpu = Number.parseInt(targetOf(web)!.cpu!, 10);
  // The usage is steady 300m of simulated time, but the sim runs in this (loaded) process while
  // Prometheus stamps samples with its own scrape times: a step's rate is ~300m only on average
  // (a loaded run saw 0.23 cores). So the expected target comes from the samples that are there,
  // at the recommender's evaluation times: p90 of the rates, as the end of its histogram bucket
  // (upstream CPU scheme), + floor(15%) margin. Worked: p90 0.3039 cores is in bucket 18
  // [0.2813, 0.3054) -> 305m + 45m = 350m.
  const samples = await cpuRates(`http://127.0.0.1:${port}`, 'web', loop.lastSync!.end, config.history, config.historyStep, loop.lastSync!.rateWindowMs);
  // With n x 0.9 a whole number (10 samples: the 9th) the decaying weights, which favour newer
  // samples by ~1e-5 per second, may tip the percentile to the next sample: both are accepted.
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(0, Math.ceil(0.9 * sorted.length) - 1);
  // The newest step's rate may still move after the recommender read it (a scrape that Prometheus
  // ingested late, under load: a CI run's recommender saw the bucket below the re-read 0.178 cores),
  // so the bucket either side is accepted; a lost 15% margin or another percentile is still caught.
  const candidates = [...new Set(sorted.slice(rank, rank + 2).flatMap((cores) => [-1, 0, 1].map((shift) => expectedTarget(cores, shift))))];
  t.diagnostic(
    `web target after two cycles: ${JSON.stringify(targetOf(web))}; ${samples.length} rate samples, p90 ${sorted[rank]} cores, expected ${candidates.join(' or ')}m`,
  );
  assert.ok(samples.length >= 2, `${samples.length} rate samples of web (at least one per pod)`);
  assert.ok(
    candidates.some((e) => Math.abs(cpu - e) <= 1),
    `web cpu target ${cpu}m, expected ${candidates.join(' or ')}m for the samples ${sorted.join(', ')}`,
  );
  assert.equal(condition(web, 'LowConfidence')?.status, 'True', 'seconds of history are low confidence');
  const exported = await metrics.registry.getSingleMetricAsString('tailor_vpa_recommendation');
  const line = exported.split('\n').find((l) => ['vpa="web"', 'container="app"', 'resource="cpu"', 'bound="target"'].every((label) => l.includes(label)));
  assert.equal(Number(line?.split(' ').pop()), cpu / 1000, `the target gauge in cores: ${line}`);
  assert.match(await metrics.registry.getSingleMetricAsString('tailor_tracked_vpas'), /tailor_tracked_vpas\{component="recommender"\} 4/);
  const dup = await readVpa('web-again');
  assert.equal(condition(dup, 'ConfigUnsupported')?.reason, 'MultipleVPAs');
  assert.match(condition(dup, 'ConfigUnsupported')!.message!, /older VPA web/);
  const ghost = await readVpa('ghost');
  assert.equal(condition(ghost, 'ConfigUnsupported')?.reason, 'TargetNotFound');
  assert.equal(condition(ghost, 'RecommendationProvided')?.status, 'False');

  // The hog's memory steps over its 256Mi limit 40 s after the start: OOM kills.
  const hogBefore = parseMemory(targetOf(await readVpa('hog'))!.memory!);
  const oomSeen = async () =>
    (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=hog' })).items.some((p) =>
      p.status?.containerStatuses?.some((s) => s.lastState?.terminated?.reason === 'OOMKilled'),
    );
  const deadline = Date.now() + 60_000;
  while (!(await oomSeen()) && Date.now() < deadline) {
    await delay(1000);
  }
  assert.ok(await oomSeen(), 'the hog was OOM-killed');
  await runCycle();
  const hogAfter = parseMemory(targetOf(await readVpa('hog'))!.memory!);
  t.diagnostic(`hog memory target before/after the OOM kill: ${hogBefore} -> ${hogAfter} bytes`);
  // used = max(128Mi request, last sample) -> bumped x1.2 or +100Mi: at least 228Mi, +15% margin.
  assert.ok(hogAfter > hogBefore && hogAfter >= 228 * 1024 * 1024, `hog memory target ${hogBefore} -> ${hogAfter}`);

  // Checkpoints, one per VPA x container, in the upstream format.
  const names = (
    (await custom.listNamespacedCustomObject({ ...CHECKPOINTS, namespace: 'default' })) as {
      items: Array<{ metadata: { name: string }; status: { version: string } }>;
    }
  ).items;
  assert.deepEqual(names.map((c) => c.metadata.name).sort(), ['hog-app', 'web-app']);
  assert.ok(names.every((c) => c.status.version === 'v3'));

  // A graceful restart: the shutdown writes every checkpoint (the default interval of 10 min has
  // not come round since the first cycle); a new component restores them and reads only what is newer.
  const webBefore = targetOf(await readVpa('web'));
  await loop.deactivate('shutdown');
  loop = start();
  await loop.activate();
  await runCycle();
  assert.deepEqual(targetOf(await readVpa('web')), webBefore, 'the same recommendation after the restart');
  const fullHistory = (config.history / config.historyStep) * 3; // 3 containers, every step of --history
  assert.ok(
    loop.lastSync!.cpuSamples > 0 && loop.lastSync!.cpuSamples < 40,
    `after the restart ${loop.lastSync!.cpuSamples} CPU samples were read (the full window would be up to ${fullHistory})`,
  );

  t.diagnostic(`CPU samples read in the first cycle after the restart: ${loop.lastSync!.cpuSamples}`);

  // Deleting a VPA makes its checkpoint an orphan, deleted at the next cycle.
  await custom.deleteNamespacedCustomObject({ ...VPA, namespace: 'default', name: 'hog' });
  // The sweep runs at most every 1 s and needs the watch to have seen the deletion, which a loaded
  // machine delays: cycle until the orphan is gone (the checkpoint of `web` must stay).
  const checkpointNames = async () =>
    ((await custom.listNamespacedCustomObject({ ...CHECKPOINTS, namespace: 'default' })) as { items: Array<{ metadata: { name: string } }> }).items.map(
      (c) => c.metadata.name,
    );
  const sweepDeadline = Date.now() + 30_000;
  let left = await checkpointNames();
  while (left.includes('hog-app') && Date.now() < sweepDeadline) {
    await delay(500);
    await runCycle();
    left = await checkpointNames();
  }
  assert.deepEqual(left, ['web-app']);

  // Prometheus goes away: the cycle still runs, the recommendation stays, the VPA says why.
  const kept = targetOf(await readVpa('web'));
  await stopChild(prometheus);
  await runCycle();
  const down = await readVpa('web');
  assert.deepEqual(targetOf(down), kept);
  assert.match(condition(down, 'RecommendationProvided')!.message!, /usage not updated this cycle: Prometheus unavailable/);
});

/** Waits until Prometheus holds at least `samples` CPU samples of each workload's `app` container. */
async function historyAvailable(url: string, workloads: readonly string[], samples: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const counts = await Promise.all(
      workloads.map(async (w) => {
        const query = `min(count_over_time(container_cpu_usage_seconds_total{pod=~"${w}-.*",container="app"}[5m]))`;
        const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(query)}`);
        const body = (await res.json()) as { data?: { result?: { value?: [number, string] }[] } };
        return Number(body.data?.result?.[0]?.value?.[1] ?? 0);
      }),
    );
    last = counts.join(', ');
    if (counts.every((c) => c >= samples)) return;
    await delay(500);
  }
  assert.fail(`Prometheus did not collect ${samples} samples of ${workloads.join(', ')} in ${timeoutMs} ms (last counts: ${last})`);
}

/**
 * The per-step CPU rates of a workload's `app` containers (cores, all pods), as the recommender
 * reads them: `rate` over its rate window (4 scrape intervals, at least the step; decision 0175),
 * evaluated at the step multiples in (end - history, end].
 */
async function cpuRates(url: string, workload: string, endMs: number, historyMs: number, stepMs: number, rateWindowMs: number): Promise<number[]> {
  const selector = `container_cpu_usage_seconds_total{namespace="default",pod=~"${workload}-.*",container="app"}`;
  // As the recommender writes it (whole seconds): a detected interval is rarely whole seconds
  // (4024 ms), and PromQL durations take no fraction ("4.024s" is a parse error, once read here as
  // "no samples").
  const query = `max by (namespace, pod, container) (rate(${selector}[${duration(Math.max(stepMs, rateWindowMs))}]))`;
  const params = new URLSearchParams({ query, start: String((endMs - historyMs + stepMs) / 1000), end: String(endMs / 1000), step: String(stepMs / 1000) });
  const body = (await (await fetch(`${url}/api/v1/query_range?${params}`)).json()) as {
    status?: string;
    error?: string;
    data?: { result?: { values: [number, string][] }[] };
  };
  assert.equal(body.status, 'success', `${query}: ${body.error}`);
  return (body.data?.result ?? []).flatMap((series) => series.values.map(([, v]) => Number(v)));
}

/**
 * The target for a p90 of `cores`: its bucket's end in millicores + floor(15%) (0.3039 -> 305 + 45 =
 * 350m); `shift` buckets further (-1: the bucket below).
 */
function expectedTarget(cores: number, shift = 0): number {
  const millis = Math.floor(cpuBucketEnd(cores, shift) * 1000);
  return millis + Math.floor(millis * 0.15);
}

/**
 * End of the histogram bucket holding `cores` in the upstream CPU scheme (first bucket 0.01 core,
 * each bucket 5% wider than the one before): bucket i starts at 0.01 x (1.05^i - 1) / 0.05.
 * Worked: 0.3039 -> i = floor(log(1 + 0.3039 x 5) / log(1.05)) = 18 -> ends at 0.2 x (1.05^19 - 1) = 0.3054.
 */
function cpuBucketEnd(cores: number, shift = 0): number {
  const start = (i: number) => (0.01 * (1.05 ** i - 1)) / 0.05;
  const i = Math.floor(Math.log(1 + (cores * 0.05) / 0.01) / Math.log(1.05));
  return start(i + shift + 1);
}

/** Polls `condition` every 50 ms until it holds; fails after `timeoutMs`. */
async function pollUntil(what: string, condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await delay(50);
  }
}
