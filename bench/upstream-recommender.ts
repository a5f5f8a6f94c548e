/**
 * `npm run bench:upstream-recommender -- [N]`: whole-process memory of Tailor's recommender and of
 * upstream's (k8s.io/autoscaler/vertical-pod-autoscaler v1.8.1, built by
 * test/real-cluster/build-upstream-vpa.sh), fed the same Prometheus history for the same VPAs.
 *
 * One kube-sim (in this process, real time) holds N Deployments of one pod each, in namespaces of
 * 50, and one VPA per Deployment (updateMode Off: only the recommenders act). Their containers get 8
 * days of usage ending now, every 150 s, backfilled into Debian's Prometheus, labelled as cAdvisor's
 * (job="kubernetes-cadvisor"), and kube-state-metrics' kube_pod_labels. Then each recommender runs alone, as a host process with its
 * defaults plus what it needs to find the data: Tailor `tailor run --components recommender`
 * (history 8d at a 1m step, and again at 1h: BENCH_TAILOR_STEPS); upstream `--storage=prometheus` (history 8d at a 1h resolution) with
 * the label flags of these series. Between the two runs every VPA status and checkpoint is removed,
 * so neither starts from the other's work. kube-sim serves no metrics.k8s.io, so upstream's live
 * feed fails every loop (logged) and both recommend from the history alone.
 *
 * Per recommender: time until every VPA has a recommendation; VmHWM (peak RSS) and VmRSS from
 * /proc/<pid>/status sampled every 500 ms, the RSS once more after one more minute (steady); the
 * heap the process reports on its own /metrics (Node's nodejs_heap_size_used_bytes, Go's
 * go_memstats_heap_inuse_bytes); API requests counted by kube-sim's request log while it ran, and
 * Prometheus queries from Prometheus's own prometheus_http_requests_total.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startKubeSim } from 'kube-sim';
import { defaultScenario } from 'kube-sim/scenario';
import type { KubeObject } from 'kube-sim/apiserver';
import { VPA_CRD_MANIFESTS } from '../src/api/vpa-crd-manifests.ts';
import { freePort } from '../src/local-prometheus/free-port.ts';
import { startLocalPrometheus } from '../src/local-prometheus/prometheus-process.ts';
import { imageEnvironment, imageNodeFlags } from './image-node-flags.ts';

const DAY = 24 * 3600_000;
const SAMPLE_MS = 150_000;
const PER_NAMESPACE = 50;
const CACHE = process.env.TAILOR_CLUSTER_CACHE ?? '/var/cache/tailor-real-cluster';
const UPSTREAM = join(CACHE, 'vertical-pod-autoscaler-v1.8.1', 'vpa-recommender');
const n = Number(process.argv[2] ?? 1000);
const deadlineMs = Number(process.env.BENCH_DEADLINE_MS ?? 15 * 60_000);
const steadyMs = Number(process.env.BENCH_STEADY_MS ?? 70_000);

if (!Number.isInteger(n) || n < 1) throw new Error(`usage: bench/upstream-recommender.ts [N >= 1], got ${process.argv[2]}`);
if (!existsSync(UPSTREAM) && !process.env.BENCH_TOOLS?.split(',').every((t) => t === 'tailor')) {
  console.error(`upstream's recommender is not built: ${UPSTREAM} is missing (run: sudo test/real-cluster/build-upstream-vpa.sh vpa-recommender)`);
  process.exit(2);
}

/** CPU cores and memory bytes of container i at t (the same shapes as bench/prometheus.ts). */
const cores = (i: number, t: number) => (0.05 + (i % 30) * 0.05) * (1 + 0.5 * Math.sin((2 * Math.PI * t) / DAY + i));
const memory = (i: number, t: number) => Math.round((100 + (i % 40) * 25) * 2 ** 20 * (1 + 0.2 * Math.sin((2 * Math.PI * t) / DAY + i)));

interface Target {
  ns: string;
  pod: string;
}

/** One OpenMetrics file per day of [start, end]; cAdvisor's names and labels. */
async function writeFixture(dir: string, targets: readonly Target[], start: number, end: number): Promise<string[]> {
  const files: string[] = [];
  // The CPU counter is the running integral of the usage (CPU-seconds), continued across the days.
  const counters = Float64Array.from(targets, (_, i) => i);
  for (let day = start; day <= end; day += DAY) {
    const path = join(dir, `day-${day}.om`);
    const out = createWriteStream(path);
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    const last = Math.min(end, day + DAY - SAMPLE_MS);
    for (const metric of ['cpu', 'memory'] as const) {
      for (let i = 0; i < targets.length; i++) {
        const { ns, pod } = targets[i]!;
        const labels = `{job="kubernetes-cadvisor",namespace="${ns}",pod="${pod}",container="app"}`;
        const lines: string[] = [];
        for (let t = day; t <= last; t += SAMPLE_MS) {
          if (metric === 'cpu') {
            counters[i]! += (cores(i, t) * SAMPLE_MS) / 1000;
            lines.push(`container_cpu_usage_seconds_total${labels} ${counters[i]!.toFixed(3)} ${t / 1000}`);
          } else lines.push(`container_memory_working_set_bytes${labels} ${memory(i, t)} ${t / 1000}`);
        }
        await write(`${lines.join('\n')}\n`);
      }
    }
    // kube-state-metrics' pod labels, hourly: upstream files history under the pod's labels and
    // matches them to the VPA's selector; without them its history lands in an aggregate no VPA uses.
    for (let i = 0; i < targets.length; i++) {
      const { ns, pod } = targets[i]!;
      const lines: string[] = [];
      for (let t = day; t <= last; t += 3600_000)
        lines.push(`kube_pod_labels{job="kube-state-metrics",namespace="${ns}",pod="${pod}",label_app="app-${String(i).padStart(5, '0')}"} 1 ${t / 1000}`);
      await write(`${lines.join('\n')}\n`);
    }
    out.end('# EOF\n');
    await once(out, 'finish');
    files.push(path);
  }
  return files;
}

/** VmHWM and VmRSS of a process, in bytes. */
function procMemory(pid: number): { hwm: number; rss: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { hwm: kib('VmHWM'), rss: kib('VmRSS') };
  } catch {
    return undefined;
  }
}

/**
 * Where a process's resident set lies, from /proc/<pid>/smaps: the malloc arena of the main thread
 * (`[heap]`), other anonymous memory (V8's heap, thread arenas, stacks), file-backed pages (the
 * binary, libraries).
 */
function residentParts(pid: number): { brk: number; anon: number; file: number } | undefined {
  try {
    const parts = { brk: 0, anon: 0, file: 0 };
    let name = '';
    for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
      const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
      if (head) {
        name = head[1] === '0' ? (head[2] === '[heap]' ? 'brk' : 'anon') : 'file';
        continue;
      }
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss) parts[name as keyof typeof parts] += Number(rss[1]) * 1024;
    }
    return parts;
  } catch {
    return undefined;
  }
}

/** The sum of a metric's samples in a Prometheus text exposition (0 when none; NaN when the text is empty). */
function metricValue(text: string, name: string, labelFilter = ''): number {
  let sum = text ? 0 : NaN;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== ' ' && line[name.length] !== '{')) continue;
    if (labelFilter && !line.includes(labelFilter)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

async function scrape(url: string): Promise<string> {
  try {
    return await (await fetch(url, { signal: AbortSignal.timeout(10_000) })).text();
  } catch {
    return '';
  }
}

const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
const kib = (b: number) => `${(b / 1024).toFixed(1)} KiB`;

const work = await mkdtemp(join(tmpdir(), 'tailor-bench-upstream-'));
const scenario = defaultScenario();
scenario.nodes = Array.from({ length: Math.ceil(n / 100) + 1 }, (_, i) => ({
  name: `node-${i}`,
  cpu: '64',
  memory: '256Gi',
  pods: 110,
  labels: {},
  resizeSupport: true,
}));
const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, scenario, version: '1.35', speed: 1 });
const children: ChildProcess[] = [];
let prometheus: Awaited<ReturnType<typeof startLocalPrometheus>> | undefined;
try {
  const namespaces = new Set<string>();
  for (let i = 0; i < n; i++) {
    const ns = `ns-${String(Math.floor(i / PER_NAMESPACE)).padStart(3, '0')}`;
    if (!namespaces.has(ns)) {
      await sim.server.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } as unknown as KubeObject);
      namespaces.add(ns);
    }
    const name = `app-${String(i).padStart(5, '0')}`;
    await sim.server.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: ns },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: 'app', image: 'app', resources: { requests: { cpu: '100m', memory: '256Mi' } } }] },
        },
      },
    } as unknown as KubeObject);
    await sim.server.create({
      apiVersion: 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      metadata: { name, namespace: ns },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, updatePolicy: { updateMode: 'Off' } },
    } as unknown as KubeObject);
  }
  const running = () => sim.server.store.list('pods').filter((p) => (p.status as { phase?: string } | undefined)?.phase === 'Running');
  for (let i = 0; i < 120 && running().length < n; i++) await sleep(1000);
  const pods = running();
  if (pods.length < n) throw new Error(`only ${pods.length} of ${n} pods run in kube-sim`);
  // Deployment app-i's pod gets container i's usage.
  const targets = pods
    .map((p) => ({ ns: p.metadata.namespace!, pod: p.metadata.name!, i: Number(/^app-(\d+)-/.exec(p.metadata.name!)![1]) }))
    .sort((a, b) => a.i - b.i);
  const kubeconfig = join(work, 'kubeconfig');
  writeFileSync(kubeconfig, sim.server.kubeconfig(), { mode: 0o600 });

  const end = Math.floor(Date.now() / SAMPLE_MS) * SAMPLE_MS;
  const start = end - 8 * DAY;
  const t0 = performance.now();
  const files = await writeFixture(work, targets, start, end);
  prometheus = await startLocalPrometheus({ files, workDir: work, extraArgs: ['--query.max-samples=200000000'] });
  console.log(
    `N = ${n}: ${n} Deployments / pods / VPAs in ${namespaces.size} namespaces (kube-sim); 8 days every ${SAMPLE_MS / 1000} s, ${(2 * n * ((end - start) / SAMPLE_MS + 1)).toLocaleString('en')} samples backfilled into Prometheus in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );

  const recommended = () =>
    sim.server.store.list('verticalpodautoscalers.autoscaling.k8s.io').filter((v) => {
      const recs = (v.status as { recommendation?: { containerRecommendations?: { containerName: string }[] } } | undefined)?.recommendation
        ?.containerRecommendations;
      return recs?.some((r) => r.containerName === 'app');
    }).length;

  const reset = () => {
    for (const v of sim.server.store.list('verticalpodautoscalers.autoscaling.k8s.io')) {
      sim.server.store.mutate('verticalpodautoscalers.autoscaling.k8s.io', v.metadata.namespace!, v.metadata.name!, (draft) => {
        draft.status = {};
      });
    }
    for (const c of sim.server.store.list('verticalpodautoscalercheckpoints.autoscaling.k8s.io')) {
      sim.server.store.delete('verticalpodautoscalercheckpoints.autoscaling.k8s.io', c.metadata.namespace!, c.metadata.name!);
    }
  };

  // Tailor at its default step (1m) and at upstream's default resolution (1h): BENCH_TAILOR_STEPS.
  const tailorSteps = (process.env.BENCH_TAILOR_STEPS ?? 'default,1h').split(',');
  const tools: {
    name: string;
    command: string;
    args: (metricsPort: number) => string[];
    heapMetric: string;
    heapCommittedMetric: string;
    env?: Record<string, string>;
  }[] = [
    ...tailorSteps.map((step) => ({
      name: step === 'default' ? 'Tailor recommender' : `Tailor recommender --history-step ${step}`,
      command: process.execPath,
      // As the image runs it: the node flags of its ENTRYPOINT.
      args: (port: number) => [
        ...imageNodeFlags(),
        'bin/tailor.mjs',
        'run',
        '--components',
        'recommender',
        '--kubeconfig',
        kubeconfig,
        '--prometheus-url',
        prometheus!.url,
        '--no-leader-elect',
        '--metrics-address',
        '127.0.0.1',
        '--metrics-port',
        String(port),
        '--log-level',
        'warn',
        ...(step === 'default' ? [] : ['--history-step', step]),
      ],
      heapMetric: 'nodejs_heap_size_used_bytes',
      heapCommittedMetric: 'nodejs_heap_size_total_bytes',
      env: imageEnvironment(),
    })),
    {
      name: 'upstream vpa-recommender v1.8.1',
      command: UPSTREAM,
      args: (port) => [
        `--kubeconfig=${kubeconfig}`,
        '--storage=prometheus',
        `--prometheus-address=${prometheus!.url}`,
        '--prometheus-cadvisor-job-name=kubernetes-cadvisor',
        '--container-namespace-label=namespace',
        '--container-pod-name-label=pod',
        '--container-name-label=container',
        // The pod-labels query must answer a matrix (a range selector); pods' labels come from the API.
        '--metric-for-pod-labels=kube_pod_labels{job="kube-state-metrics"}[8d]',
        '--pod-namespace-label=namespace',
        '--pod-name-label=pod',
        '--pod-label-prefix=label_',
        `--address=127.0.0.1:${port}`,
        '--v=1',
      ],
      heapMetric: 'go_memstats_heap_inuse_bytes',
      heapCommittedMetric: 'go_memstats_heap_sys_bytes',
    },
  ];
  const only = process.env.BENCH_TOOLS?.split(',');
  const rows: string[] = [];
  for (const tool of tools) {
    if (only && !only.some((o) => tool.name.toLowerCase().includes(o))) continue;
    reset();
    const port = await freePort();
    const promBefore = metricValue(await scrape(`${prometheus.url}/metrics`), 'prometheus_http_requests_total', 'handler="/api/v1/query');
    let apiRequests = 0;
    const verbs = new Map<string, number>();
    const stopLog = sim.server.requests.onRecord((r) => {
      apiRequests++;
      const key = `${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''}`;
      verbs.set(key, (verbs.get(key) ?? 0) + 1);
    });
    const started = performance.now();
    const child = spawn(tool.command, tool.args(port), { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...tool.env } });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-20_000)));
    let hwm = 0;
    let doneMs: number | undefined;
    let steadyRss = 0;
    let heap = NaN;
    let heapCommitted = NaN;
    let parts: ReturnType<typeof residentParts>;
    while (child.exitCode === null) {
      const m = procMemory(child.pid!);
      if (m) hwm = Math.max(hwm, m.hwm);
      const elapsed = performance.now() - started;
      if (doneMs === undefined && recommended() >= n) doneMs = elapsed;
      if (doneMs !== undefined && elapsed - doneMs >= steadyMs) {
        steadyRss = m?.rss ?? 0;
        const own = await scrape(`http://127.0.0.1:${port}/metrics`);
        heap = metricValue(own, tool.heapMetric);
        heapCommitted = metricValue(own, tool.heapCommittedMetric);
        parts = residentParts(child.pid!);
        break;
      }
      if (elapsed > deadlineMs) break;
      await sleep(500);
    }
    stopLog();
    const promQueries = metricValue(await scrape(`${prometheus.url}/metrics`), 'prometheus_http_requests_total', 'handler="/api/v1/query') - promBefore;
    child.kill('SIGTERM');
    await Promise.race([once(child, 'exit'), sleep(10_000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
    if (doneMs === undefined) {
      console.log(
        `\n${tool.name}: ${recommended()} of ${n} VPAs recommended after ${deadlineMs / 1000} s (or it exited: ${child.exitCode}); peak RSS ${mib(hwm)}; end of its log:\n${stderr.slice(-3000)}`,
      );
      continue;
    }
    const sample = sim.server.store
      .list('verticalpodautoscalers.autoscaling.k8s.io')
      .slice(0, 3)
      .map(
        (v) =>
          `${v.metadata.name} ${JSON.stringify((v.status as { recommendation?: { containerRecommendations?: { target?: unknown }[] } }).recommendation?.containerRecommendations?.[0]?.target)}`,
      );
    console.log(`${tool.name}: targets ${sample.join('; ')}`);
    const top = [...verbs.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    rows.push(
      `| ${tool.name} | ${(doneMs / 1000).toFixed(0)} s | ${mib(hwm)} | ${mib(steadyRss)} | ${kib(steadyRss / n)} | ${mib(heap)} | ${apiRequests} (${top}) | ${promQueries} |`,
    );
    const where = parts
      ? `; resident: malloc [heap] ${mib(parts.brk)}, other anonymous ${mib(parts.anon)}, file-backed ${mib(parts.file)}; heap committed ${mib(heapCommitted)} (${tool.heapCommittedMetric})`
      : '';
    console.log(
      `\n${tool.name}: all ${n} VPAs recommended after ${(doneMs / 1000).toFixed(1)} s; peak RSS (VmHWM) ${mib(hwm)}; RSS ${steadyMs / 1000} s later ${mib(steadyRss)} = ${kib(steadyRss / n)} per container; heap ${mib(heap)} (${tool.heapMetric}); ${apiRequests} API requests (${top}); ${promQueries} Prometheus queries${where}`,
    );
  }
  console.log(
    `\n| recommender | all VPAs recommended after | peak RSS (VmHWM) | RSS ${steadyMs / 1000} s later | RSS per container | heap (own /metrics) | API requests completed until then (top kinds) | Prometheus queries |`,
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await prometheus?.stop();
  await sim.close();
  await rm(work, { recursive: true, force: true });
}
