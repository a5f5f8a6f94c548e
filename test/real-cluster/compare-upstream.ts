/**
 * Tailor and upstream's VPA v1.8.1 side by side on the real-cluster lane: the same scenarios, one
 * autoscaler at a time, each as three host processes (recommender, updater, admission webhook)
 * with its defaults and `updateMode: InPlaceOrRecreate`. Prints one JSON line per autoscaler and
 * the table of docs/comparison-upstream-vpa.md. Run by compare-upstream.sh (which holds the lane's
 * lock and brings the lane up with TAILOR_CLUSTER_AUDIT=1); needs the binaries of
 * build-upstream-vpa.sh.
 *
 * Scenarios (a Deployment of one busybox pod and its VPA each, in a namespace per autoscaler):
 *   web    CPU under-provisioned: 100m requested, a busy loop limited to 400m; cpu NotRequired.
 *   cache  memory under-provisioned: 32Mi requested, 96Mi written to a memory-backed emptyDir;
 *          memory RestartContainer (the VPA carries tailor.dev/allow-container-restart).
 *   batch  a VPA minAllowed of 3 cpu, more than a node has: the in-place resize is Infeasible.
 *
 * Observed per scenario, by polling the pods every second: in place (same pod, new resources,
 * no restart), in place with a restart, eviction (a new pod), a pending resize, or nothing; and the
 * time from the autoscaler's start until the kubelet reported the new resources (or the new pod
 * existed). Per component: VmHWM and VmRSS from /proc/<pid>/status. API requests: the lane's audit
 * log, user tailor-lane-autoscaler (the autoscalers' own client certificate), per user agent.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import { BUSYBOX_IMAGE, laneKubeConfig, waitFor } from './lane-cluster.ts';
import { startLaneMetricsServer, type LaneMetricsServer } from './lane-metrics-server.ts';
import { freePort } from '../support/free-port.ts';

const STATE = process.env.TAILOR_CLUSTER_STATE ?? '/var/lib/tailor-real-cluster';
const CACHE = process.env.TAILOR_CLUSTER_CACHE ?? '/var/cache/tailor-real-cluster';
const PKI = join(STATE, 'pki');
const WORK = join(STATE, 'compare-upstream');
const AUTOSCALER_KUBECONFIG = join(PKI, 'autoscaler.kubeconfig');
const AUDIT_LOG = join(STATE, 'audit.log');
const VPA_BIN = join(CACHE, 'vertical-pod-autoscaler-v1.8.1');
const METRICS_SERVER = join(CACHE, 'metrics-server-v0.9.0', 'metrics-server');
const KUBELETS = ['10.213.1.1:10250', '10.213.2.1:10260'];
const WINDOW_MS = Number(process.env.COMPARE_WINDOW_MS ?? 6 * 60_000);
const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };

const kc = laneKubeConfig();
const core = kc.makeApiClient(k8s.CoreV1Api);
const apps = kc.makeApiClient(k8s.AppsV1Api);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);
const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);
const objects = k8s.KubernetesObjectApi.makeApiClient(kc);

mkdirSync(WORK, { recursive: true });
const processes: { name: string; child: ChildProcess; log: string[] }[] = [];

function start(name: string, command: string, args: string[]): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  const keep = (d: Buffer) => {
    log.push(d.toString());
    if (log.length > 200) log.splice(0, log.length - 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  processes.push({ name, child, log });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const deadline = Date.now() + 10_000;
  while (child.exitCode === null && child.signalCode === null && Date.now() < deadline) await sleep(100);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function procMemory(pid: number | undefined): { hwm: number; rss: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN) * 1024;
    return { hwm: kib('VmHWM'), rss: kib('VmRSS') };
  } catch {
    return undefined;
  }
}

async function applyYaml(text: string): Promise<void> {
  for (const spec of k8s.loadAllYaml(text) as k8s.KubernetesObject[]) {
    if (!spec?.kind) continue;
    try {
      await objects.create(spec);
    } catch (error) {
      if ((error as { code?: number }).code !== 409) throw new Error(`creating ${spec.kind} ${spec.metadata?.name}`, { cause: error });
    }
  }
}

/** Replaces the VPA CRDs by an autoscaler's own (Tailor's manifests/crds or upstream's deploy/). */
async function installCrds(yaml: string): Promise<void> {
  for (const name of ['verticalpodautoscalers.autoscaling.k8s.io', 'verticalpodautoscalercheckpoints.autoscaling.k8s.io']) {
    await ext.deleteCustomResourceDefinition({ name }).catch(() => undefined);
    await waitFor(`CRD ${name} gone`, 120_000, async () =>
      ext.readCustomResourceDefinition({ name }).then(
        () => undefined,
        () => true,
      ),
    );
  }
  await applyYaml(yaml);
  for (const name of ['verticalpodautoscalers.autoscaling.k8s.io', 'verticalpodautoscalercheckpoints.autoscaling.k8s.io']) {
    await waitFor(`CRD ${name} Established`, 60_000, async () => {
      const got = await ext.readCustomResourceDefinition({ name });
      return got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
    });
  }
}

/** Prometheus (Debian's) scraping both kubelets' /metrics/resource every 10 s (the lane's cAdvisor sees pod cgroups only, no containers): Tailor's source. */
async function startPrometheus(): Promise<string> {
  const config = `global: {scrape_interval: 10s}
scrape_configs:
- job_name: kubernetes-cadvisor
  scheme: https
  metrics_path: /metrics/resource
  tls_config: {ca_file: ${PKI}/ca.crt, cert_file: ${PKI}/admin.crt, key_file: ${PKI}/admin.key}
  static_configs: [{targets: ${JSON.stringify(KUBELETS)}}]
`;
  writeFileSync(join(WORK, 'prometheus.yml'), config);
  const port = 39090;
  start('prometheus', 'prometheus', [
    `--config.file=${join(WORK, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(WORK, 'prometheus')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ]);
  const url = `http://127.0.0.1:${port}`;
  await waitFor('prometheus scraping the kubelets', 120_000, async () => {
    // Every kubelet scraped successfully (no pod runs yet, so no container series can be waited for).
    const r = await fetch(`${url}/api/v1/query?query=${encodeURIComponent('sum(up{job="kubernetes-cadvisor"})')}`).then(
      (x) => x.json() as Promise<{ data?: { result?: Array<{ value: [number, string] }> } }>,
      () => undefined,
    );
    return Number(r?.data?.result?.[0]?.value[1] ?? 0) === KUBELETS.length ? true : undefined;
  });
  return url;
}

type Scenario = 'web' | 'cache' | 'batch';
const SCENARIOS: Scenario[] = ['web', 'cache', 'batch'];

function deployment(name: Scenario): k8s.V1Deployment {
  const labels = { app: name };
  const container: k8s.V1Container = { name: 'app', image: BUSYBOX_IMAGE, imagePullPolicy: 'Never' };
  const volumes: k8s.V1Volume[] = [];
  if (name === 'web') {
    container.command = ['sh', '-c', 'while :; do :; done'];
    container.resources = { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '400m', memory: '64Mi' } };
    container.resizePolicy = [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'memory', restartPolicy: 'NotRequired' },
    ];
  } else if (name === 'cache') {
    container.command = ['sh', '-c', 'dd if=/dev/zero of=/mem/fill bs=1M count=96 2>/dev/null; exec sleep 3600'];
    container.resources = { requests: { cpu: '50m', memory: '32Mi' }, limits: { cpu: '100m', memory: '192Mi' } };
    container.resizePolicy = [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'memory', restartPolicy: 'RestartContainer' },
    ];
    container.volumeMounts = [{ name: 'mem', mountPath: '/mem' }];
    volumes.push({ name: 'mem', emptyDir: { medium: 'Memory' } });
  } else {
    container.command = ['sh', '-c', 'exec sleep 3600'];
    container.resources = { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '200m', memory: '64Mi' } };
    container.resizePolicy = [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'memory', restartPolicy: 'NotRequired' },
    ];
  }
  return {
    metadata: { name, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { terminationGracePeriodSeconds: 0, containers: [container], volumes } },
    },
  };
}

function vpa(name: Scenario): object {
  const resource = name === 'cache' ? 'memory' : 'cpu';
  return {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name, ...(name === 'cache' ? { annotations: { 'tailor.dev/allow-container-restart': 'true' } } : {}) },
    spec: {
      targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      updatePolicy: { updateMode: 'InPlaceOrRecreate', minReplicas: 1 },
      resourcePolicy: {
        containerPolicies: [{ containerName: 'app', controlledResources: [resource], ...(name === 'batch' ? { minAllowed: { cpu: '3' } } : {}) }],
      },
    },
  };
}

interface Outcome {
  what: string;
  appliedAfterS?: number;
  from: string;
  to?: string;
}

/** Watches one scenario's pods: what changed, and when the change was in effect. */
class ScenarioWatch {
  private first?: { uid: string; request: string; restarts: number };
  outcome: Outcome = { what: 'nothing', from: '' };
  started = 0;
  constructor(
    readonly namespace: string,
    readonly scenario: Scenario,
  ) {}
  private resource(): 'cpu' | 'memory' {
    return this.scenario === 'cache' ? 'memory' : 'cpu';
  }
  async init(): Promise<void> {
    const pod = await waitFor(`${this.scenario} pod running`, 180_000, async () => {
      const list = await core.listNamespacedPod({ namespace: this.namespace, labelSelector: `app=${this.scenario}` });
      return list.items.find((p) => p.status?.phase === 'Running');
    });
    const request = pod.spec!.containers[0]!.resources!.requests![this.resource()]!;
    this.first = { uid: pod.metadata!.uid!, request, restarts: pod.status!.containerStatuses![0]!.restartCount };
    this.outcome.from = request;
  }
  async poll(): Promise<void> {
    if (!this.first || this.outcome.appliedAfterS !== undefined) return;
    const elapsed = (Date.now() - this.started) / 1000;
    const list = await core.listNamespacedPod({ namespace: this.namespace, labelSelector: `app=${this.scenario}` });
    const same = list.items.find((p) => p.metadata!.uid === this.first!.uid && !p.metadata!.deletionTimestamp);
    const res = this.resource();
    if (same) {
      const status = same.status?.containerStatuses?.[0];
      const now = status?.resources?.requests?.[res];
      const pending = same.status?.conditions?.find((c) => c.type === 'PodResizePending' || c.type === 'PodResizeInProgress');
      const specRequest = same.spec!.containers[0]!.resources!.requests![res];
      if (now && now !== this.first.request) {
        const restarted = (status?.restartCount ?? 0) > this.first.restarts;
        this.outcome = {
          what: restarted ? 'in place, container restarted' : 'in place, no restart',
          appliedAfterS: Math.round(elapsed),
          from: this.first.request,
          to: now,
        };
      } else if (specRequest !== this.first.request && pending) {
        this.outcome = { what: `resize asked (${specRequest}), ${pending.type} ${pending.reason ?? ''}`.trim(), from: this.first.request, to: specRequest };
      }
      return;
    }
    const replacement = list.items.find((p) => p.metadata!.uid !== this.first!.uid);
    if (replacement) {
      const request = replacement.spec!.containers[0]!.resources!.requests![res];
      this.outcome = {
        what: `eviction; new pod ${replacement.status?.phase ?? ''}`.trim(),
        appliedAfterS: Math.round(elapsed),
        from: this.first.request,
        to: request,
      };
    }
  }
}

/** Requests in the audit log by the autoscalers' user since `since`, per user agent (first word). */
function auditCounts(since: number): Record<string, number> {
  const counts: Record<string, number> = {};
  if (!existsSync(AUDIT_LOG)) return counts;
  for (const line of readFileSync(AUDIT_LOG, 'utf8').split('\n')) {
    if (!line.includes('tailor-lane-autoscaler')) continue;
    const e = JSON.parse(line) as { stage: string; user?: { username?: string }; userAgent?: string; requestReceivedTimestamp: string };
    if (e.user?.username !== 'tailor-lane-autoscaler' || (e.stage !== 'ResponseComplete' && e.stage !== 'Panic')) continue;
    if (Date.parse(e.requestReceivedTimestamp) < since) continue;
    const agent = (e.userAgent ?? '?').split(/[/ ]/)[0]!;
    counts[agent] = (counts[agent] ?? 0) + 1;
  }
  return counts;
}

interface Autoscaler {
  name: string;
  crds: () => string;
  components: { name: string; command: string; args: string[] }[];
}

function upstreamAdmissionCerts(): { cert: string; key: string; ca: string } {
  const dir = join(WORK, 'vpa-webhook-certs');
  mkdirSync(dir, { recursive: true });
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=vpa-webhook-ca',
  ]);
  run(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
  writeFileSync(join(dir, 'ext'), 'subjectAltName=IP:127.0.0.1\n');
  run(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'ext']);
  return { cert: join(dir, 'server.crt'), key: join(dir, 'server.key'), ca: join(dir, 'ca.crt') };
}

/** The loopback ports of the components (metrics, webhooks), picked free at start instead of fixed, so a busy machine never collides. */
async function componentPorts() {
  const names = [
    'tailorRecommender',
    'tailorUpdater',
    'tailorAdmissionMetrics',
    'tailorWebhook',
    'vpaRecommender',
    'vpaUpdater',
    'vpaAdmissionMetrics',
    'vpaWebhook',
  ] as const;
  const ports = await Promise.all(names.map(() => freePort()));
  return Object.fromEntries(names.map((n, i) => [n, String(ports[i])])) as Record<(typeof names)[number], string>;
}

function autoscalers(prometheusUrl: string, port: Awaited<ReturnType<typeof componentPorts>>): Autoscaler[] {
  // Upstream's algorithm on both sides (`--recommender-strategy vpa`), so the comparison is of how
  // the recommendations are applied; Tailor's default, tailor-low-churn (decision 0276), would
  // also recommend other numbers.
  const tailorCommon = [
    'bin/tailor.mjs',
    'run',
    '--recommender-strategy',
    'vpa',
    '--kubeconfig',
    AUTOSCALER_KUBECONFIG,
    '--prometheus-url',
    prometheusUrl,
    '--no-leader-elect',
    '--metrics-address',
    '127.0.0.1',
    '--log-level',
    'warn',
  ];
  const certs = upstreamAdmissionCerts();
  const upstreamCommon = [`--kubeconfig=${AUTOSCALER_KUBECONFIG}`, '--v=1'];
  const upstreamCrd = join(VPA_BIN, 'vpa-v1-crd-gen.yaml');
  return [
    {
      name: 'Tailor',
      crds: () =>
        ['manifests/crds/verticalpodautoscalers.yaml', 'manifests/crds/verticalpodautoscalercheckpoints.yaml']
          .map((f) => readFileSync(f, 'utf8'))
          .join('\n---\n'),
      components: [
        { name: 'recommender', command: process.execPath, args: [...tailorCommon, '--components', 'recommender', '--metrics-port', port.tailorRecommender] },
        { name: 'updater', command: process.execPath, args: [...tailorCommon, '--components', 'updater', '--metrics-port', port.tailorUpdater] },
        {
          name: 'admission',
          command: process.execPath,
          args: [
            ...tailorCommon,
            '--components',
            'admission',
            '--metrics-port',
            port.tailorAdmissionMetrics,
            '--admission-address',
            '127.0.0.1',
            '--admission-port',
            port.tailorWebhook,
            '--admission-webhook-url',
            `https://127.0.0.1:${port.tailorWebhook}`,
          ],
        },
      ],
    },
    {
      name: 'upstream VPA v1.8.1',
      crds: () => readFileSync(upstreamCrd, 'utf8'),
      components: [
        { name: 'recommender', command: join(VPA_BIN, 'vpa-recommender'), args: [...upstreamCommon, `--address=127.0.0.1:${port.vpaRecommender}`] },
        { name: 'updater', command: join(VPA_BIN, 'vpa-updater'), args: [...upstreamCommon, `--address=127.0.0.1:${port.vpaUpdater}`, '--min-replicas=1'] },
        {
          name: 'admission',
          command: join(VPA_BIN, 'vpa-admission-controller'),
          args: [
            ...upstreamCommon,
            `--address=127.0.0.1:${port.vpaAdmissionMetrics}`,
            `--port=${port.vpaWebhook}`,
            '--register-by-url',
            '--webhook-address=https://127.0.0.1',
            `--webhook-port=${port.vpaWebhook}`,
            `--tls-cert-file=${certs.cert}`,
            `--tls-private-key=${certs.key}`,
            `--client-ca-file=${certs.ca}`,
          ],
        },
      ],
    },
  ];
}

async function runOne(a: Autoscaler): Promise<object> {
  await installCrds(a.crds());
  const namespace = `cmp-${a.name.split(' ')[0]!.toLowerCase()}`;
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  await waitFor(`service account in ${namespace}`, 60_000, async () =>
    core.readNamespacedServiceAccount({ namespace, name: 'default' }).then(
      () => true,
      () => undefined,
    ),
  );
  for (const s of SCENARIOS) await apps.createNamespacedDeployment({ namespace, body: deployment(s) });
  const watches = SCENARIOS.map((s) => new ScenarioWatch(namespace, s));
  for (const w of watches) await w.init();
  // The clock starts when the autoscaler does, with the pods running and no VPA seen yet.
  for (const s of SCENARIOS) await custom.createNamespacedCustomObject({ ...VPA, namespace, body: vpa(s) });
  const t0 = Date.now();
  for (const w of watches) w.started = t0;
  const children = a.components.map((c) => ({ ...c, child: start(`${a.name} ${c.name}`, c.command, c.args) }));
  const hwm: Record<string, number> = {};
  while (Date.now() - t0 < WINDOW_MS) {
    for (const c of children) {
      const m = procMemory(c.child.pid);
      if (m) hwm[c.name] = Math.max(hwm[c.name] ?? 0, m.hwm);
      if (c.child.exitCode !== null)
        throw new Error(
          `${a.name} ${c.name} exited (${c.child.exitCode}): ${processes
            .find((p) => p.child === c.child)!
            .log.join('')
            .slice(-2000)}`,
        );
    }
    for (const w of watches) await w.poll().catch(() => undefined);
    if (watches.every((w) => w.outcome.appliedAfterS !== undefined)) break;
    await sleep(1000);
  }
  const rss: Record<string, number> = {};
  for (const c of children) rss[c.name] = procMemory(c.child.pid)?.rss ?? NaN;
  const recs = (await custom.listNamespacedCustomObject({ ...VPA, namespace })) as {
    items: { metadata: { name: string }; status?: { recommendation?: { containerRecommendations?: { target?: Record<string, string> }[] } } }[];
  };
  for (const c of children) await stop(c.child);
  const api = auditCounts(t0);
  // Its webhook configurations go with it (the next autoscaler's pods must not call a stopped webhook).
  const admission = kc.makeApiClient(k8s.AdmissionregistrationV1Api);
  for (const w of (await admission.listMutatingWebhookConfiguration()).items) await admission.deleteMutatingWebhookConfiguration({ name: w.metadata!.name! });
  for (const w of (await admission.listValidatingWebhookConfiguration()).items)
    await admission.deleteValidatingWebhookConfiguration({ name: w.metadata!.name! });
  await core.deleteNamespace({ name: namespace, gracePeriodSeconds: 0 }).catch(() => undefined);
  await waitFor(`namespace ${namespace} gone`, 180_000, async () =>
    core.readNamespace({ name: namespace }).then(
      () => undefined,
      () => true,
    ),
  );
  return {
    autoscaler: a.name,
    windowS: Math.round((Date.now() - t0) / 1000),
    scenarios: Object.fromEntries(watches.map((w) => [w.scenario, w.outcome])),
    targets: Object.fromEntries(recs.items.map((v) => [v.metadata.name, v.status?.recommendation?.containerRecommendations?.[0]?.target])),
    peakRssMiB: Object.fromEntries(Object.entries(hwm).map(([k, v]) => [k, +(v / 2 ** 20).toFixed(1)])),
    rssAtEndMiB: Object.fromEntries(Object.entries(rss).map(([k, v]) => [k, +(v / 2 ** 20).toFixed(1)])),
    apiRequests: api,
  };
}

const results: object[] = [];
let metricsServer: LaneMetricsServer | undefined;
try {
  // Tailor's admission webhook keeps its CA in a Secret of its own namespace.
  await core.createNamespace({ body: { metadata: { name: 'tailor' } } }).catch(() => undefined);
  const prometheusUrl = await startPrometheus();
  metricsServer = await startLaneMetricsServer(kc, { binary: METRICS_SERVER, state: STATE, workDir: WORK });
  const only = process.env.COMPARE_ONLY?.toLowerCase();
  for (const a of autoscalers(prometheusUrl, await componentPorts())) {
    if (only && !a.name.toLowerCase().includes(only)) continue;
    const r = await runOne(a);
    results.push(r);
    console.log(JSON.stringify(r));
  }
} finally {
  await metricsServer?.stop();
  for (const p of processes.reverse()) await stop(p.child);
  writeFileSync(join(WORK, 'results.json'), JSON.stringify(results, null, 2));
}
