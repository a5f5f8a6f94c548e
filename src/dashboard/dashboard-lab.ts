/**
 * A live setup for Tailor's dashboard: kube-sim at real speed with a small scenario, Tailor's
 * recommender, updater and admission webhook in this process (as `tailor run` builds them, with
 * leader election and /metrics over HTTP), and a real Prometheus scraping kube-sim's cAdvisor and
 * kube-state-metrics endpoints and Tailor's /metrics every second. Used by the dashboard test
 * (every panel query returns data) and `npm run render:dashboard` (the PNGs of docs/dashboard.md).
 *
 * The scenario makes every panel's events happen within about a minute, worked through with the
 * recommender's low-confidence bounds (lower bound = p50 x 1.15 x (1 + 0.001/days)^-2, which is
 * x0.17 after 60 s of history; per-pod floors 25m CPU and 250Mi memory):
 * - `web` requests 20m CPU and uses 300m: lower bound max(25m, 0.3 x 1.15 x 0.17 = 58m) > 20m, so
 *   the updater resizes it in place (doubling at most per step: 40m);
 * - `big` requests 1200m and wants 8 cores on a 2-core node: the resize to 2400m cannot fit the node
 *   (Infeasible), so the updater falls back to an eviction (FallbackInfeasible); its new pod goes
 *   through the admission webhook, which sets the recommendation;
 * - `hog`'s memory steps from 100Mi to 1Gi after 30 s, over its 256Mi limit: OOM kills, and a
 *   memory resize with resizePolicy RestartContainer (the restart path);
 * - `idle` requests 500m / 512Mi, uses 30m / 64Mi, with updateMode Off: pure estimated savings;
 * - `db`, a StatefulSet (mode Off): its pods are owned directly, not through a ReplicaSet;
 * - the first VPA status patch, and the first one after 15 s, answer 500: the recommender retries
 *   them. Two at different times, because a counter series born at 1 shows no increase() in
 *   Prometheus: the panel needs the second.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { startRun } from '../controller/start-run.ts';
import { resolveRunConfig } from '../controller/run-config.ts';
import type { RunningController } from '../controller/controller-runtime.ts';
import { freePort } from '../local-prometheus/free-port.ts';
import { startLocalPrometheus, type LocalPrometheus } from '../local-prometheus/prometheus-process.ts';
import { startKubeSim, type KubeSim } from 'kube-sim';
import { parseScenario } from 'kube-sim/scenario';
import { instantQuery } from './prometheus-api.ts';
import { VPA_CRD_MANIFESTS } from '../api/vpa-crd-manifests.ts';

/** The namespace of the lab's workloads. */
export const LAB_NAMESPACE = 'shop';

function vpa(name: string, mode: string, extra: Record<string, unknown> = {}, kind = 'Deployment'): string {
  return JSON.stringify({
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name, namespace: LAB_NAMESPACE },
    spec: { targetRef: { apiVersion: 'apps/v1', kind, name }, updatePolicy: { updateMode: mode, ...extra } },
  });
}

/** One HTTP 500 on the next VPA status patch: the recommender retries it. */
const STATUS_FAULT = { verbs: ['patch'], resources: ['verticalpodautoscalers'], subresources: ['status'], error: 500, times: 1 } as const;

/** When the second status fault is armed (ms after the start): the retry counter, born at 1 by the first, then rises. */
const SECOND_FAULT_AFTER_MS = 15_000;

/** The lab's cluster: one 2-core node, four Deployments and a StatefulSet with VPAs (see the file comment). */
export const LAB_SCENARIO = `
nodes: [{name: node-1, cpu: "2", memory: 8Gi}]
workloads:
  - {kind: Deployment, name: web, namespace: ${LAB_NAMESPACE}, replicas: 2, containers: [
      {name: app, requests: {cpu: 20m, memory: 300Mi}, limits: {cpu: 500m, memory: 600Mi}, usage: {cpu: "steady(300m)", memory: "steady(120Mi)"}}]}
  - {kind: Deployment, name: big, namespace: ${LAB_NAMESPACE}, replicas: 1, containers: [
      {name: app, requests: {cpu: 1200m, memory: 256Mi}, usage: {cpu: "steady(8)", memory: "steady(200Mi)"}}]}
  - {kind: Deployment, name: hog, namespace: ${LAB_NAMESPACE}, replicas: 1, containers: [
      {name: app, requests: {cpu: 100m, memory: 128Mi}, limits: {memory: 256Mi}, resizePolicy: {memory: RestartContainer},
       usage: {cpu: "steady(50m)", memory: "step(100Mi, 1Gi, 30s)"}}]}
  - {kind: Deployment, name: idle, namespace: ${LAB_NAMESPACE}, replicas: 1, containers: [
      {name: app, requests: {cpu: 500m, memory: 512Mi}, usage: {cpu: "steady(30m)", memory: "steady(64Mi)"}}]}
  - {kind: StatefulSet, name: db, namespace: ${LAB_NAMESPACE}, replicas: 1, containers: [
      {name: postgres, requests: {cpu: 50m, memory: 256Mi}, usage: {cpu: "steady(40m)", memory: "steady(200Mi)"}}]}
objects:
  - {apiVersion: v1, kind: Namespace, metadata: {name: tailor}}
  - ${vpa('web', 'InPlaceOrRecreate')}
  - ${vpa('big', 'InPlaceOrRecreate', { minReplicas: 1 })}
  - ${vpa('hog', 'InPlaceOrRecreate', { minReplicas: 1 })}
  - ${vpa('idle', 'Off')}
  - ${vpa('db', 'Off', {}, 'StatefulSet')}
faults:
  - ${JSON.stringify(STATUS_FAULT)}
`;

/** The prometheus.yml: kube-sim's two endpoints (HTTPS, its own CA) and Tailor's /metrics, every second. */
export function labPrometheusConfig(simTarget: string, tailorTarget: string): string {
  return [
    'global: {scrape_interval: 1s, scrape_timeout: 1s}',
    'scrape_configs:',
    ...['cadvisor', 'kube-state'].map(
      (path) =>
        `  - {job_name: ${path}, scheme: https, tls_config: {insecure_skip_verify: true}, metrics_path: /metrics/${path}, static_configs: [{targets: ['${simTarget}']}]}`,
    ),
    `  - {job_name: tailor, metrics_path: /metrics, static_configs: [{targets: ['${tailorTarget}']}]}`,
    '',
  ].join('\n');
}

export interface DashboardLab {
  sim: KubeSim;
  prometheus: LocalPrometheus;
  tailor: RunningController;
  /** When the lab started (ms since epoch). */
  startedAt: number;
  /** Stops Tailor, Prometheus and kube-sim (idempotent). */
  stop(): Promise<void>;
}

export interface DashboardLabOptions {
  /** Where Tailor's JSON logs go (default: nowhere). */
  logDestination?: Writable;
  /** Tailor's log level (default silent). */
  logLevel?: string;
}

/** Starts kube-sim, Prometheus and Tailor; on any failure, stops what had started and rethrows. */
export async function startDashboardLab(options: DashboardLabOptions = {}): Promise<DashboardLab> {
  const startedAt = Date.now();
  const stops: Array<() => Promise<void>> = [];
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const s of stops.reverse()) await s().catch(() => undefined);
    })());
  try {
    const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, scenario: parseScenario(LAB_SCENARIO), speed: 1, tickMs: 200 });
    stops.push(() => sim.close());
    const dir = await mkdtemp(join(tmpdir(), 'tailor-dashboard-lab-'));
    stops.push(() => rm(dir, { recursive: true, force: true }));
    const kubeconfig = join(dir, 'kubeconfig');
    await sim.server.writeKubeconfig(kubeconfig);
    const metricsPort = await freePort();
    const admissionPort = await freePort();
    const prometheus = await startLocalPrometheus({ config: labPrometheusConfig(`127.0.0.1:${sim.server.port}`, `127.0.0.1:${metricsPort}`) });
    stops.push(() => prometheus.stop());
    const { config } = resolveRunConfig(
      {
        components: 'recommender,updater,admission',
        kubeconfig,
        interval: '2s',
        prometheusUrl: prometheus.url,
        history: '10m',
        historyStep: '2s',
        metricsAddress: '127.0.0.1',
        metricsPort: String(metricsPort),
        leaderIdentity: 'tailor-0',
        allowContainerRestart: true,
        admissionAddress: '127.0.0.1',
        admissionPort: String(admissionPort),
        admissionWebhookUrl: `https://127.0.0.1:${admissionPort}`,
        logLevel: options.logLevel ?? 'silent',
      },
      {},
    );
    const tailor = await startRun(config, { env: {}, ...(options.logDestination ? { logDestination: options.logDestination } : {}) });
    stops.push(() => tailor.stop());
    const secondFault = setTimeout(
      () =>
        sim.server.addFault({
          ...STATUS_FAULT,
          verbs: [...STATUS_FAULT.verbs],
          resources: [...STATUS_FAULT.resources],
          subresources: [...STATUS_FAULT.subresources],
        }),
      SECOND_FAULT_AFTER_MS,
    );
    stops.push(async () => clearTimeout(secondFault));
    return { sim, prometheus, tailor, startedAt, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The scenario's events, as PromQL that is > 0 once each has happened and been scraped. */
export const LAB_EVENTS: Readonly<Record<string, string>> = {
  'in-place resize': 'sum(tailor_updater_resizes_total{path="in-place", outcome="applied"})',
  'restart resize': 'sum(tailor_updater_resizes_total{path="restart", outcome="applied"})',
  'Infeasible fallback': 'sum(tailor_updater_fallbacks_total{cause="FallbackInfeasible"})',
  'applied eviction': 'sum(tailor_updater_evictions_total{outcome="applied"})',
  'OOM kill': `sum(container_oom_events_total{namespace="${LAB_NAMESPACE}"})`,
  'admission review': 'sum(tailor_admission_reviews_total{webhook="mutate-pods", outcome="patched"})',
  'two recommender write retries': 'sum(tailor_recommender_write_retries_total{object="status", reason="unavailable"}) - 1',
  'resize seen applied': 'sum(tailor_updater_recommendation_to_applied_seconds_count)',
  leader: 'max(tailor_leader)',
};

/** Polls Prometheus every second until every event was scraped or `deadline` (ms since epoch) passed; returns the events not seen. */
export async function waitForLabEvents(lab: DashboardLab, deadline: number): Promise<string[]> {
  let pending = Object.keys(LAB_EVENTS);
  for (;;) {
    const seen = await Promise.all(pending.map(async (name) => ((await instantQuery(lab.prometheus.url, LAB_EVENTS[name]!))[0]?.values[0]?.[1] ?? 0) > 0));
    pending = pending.filter((_, i) => !seen[i]);
    if (pending.length === 0 || Date.now() >= deadline) return pending;
    await new Promise((r) => setTimeout(r, 1000));
  }
}
