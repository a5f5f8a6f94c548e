/**
 * The updater side of `npm run bench:updater`, one process per run so its memory is its own:
 * starts the cluster (bench/updater-cluster.ts, another process), fills the updater's watch caches
 * as `tailor run` does, runs `loops` updater loops one minute apart and prints one JSON line:
 * - the watch caches' heap per pod: heap used after a full GC with the caches filled minus before
 *   (all six caches, over the pods), and the same for a cache of pods alone, beside the pods' JSON
 *   size;
 * - RSS: at start, after the caches filled, the peak (`maxRSS` of this process, up to the end of
 *   the last loop) and the steady RSS (after the last loop, once the watch events it caused
 *   arrived; no forced GC);
 * - per loop: wall and CPU time, the API requests the server counted during it (kube-sim's
 *   request metrics) by verb, resource and subresource, the decisions and outcomes.
 * Usage: `node --expose-gc --import tsx bench/updater-run.ts <cluster script> <N> <latencyMs> <loops> [profile dir]`
 * (run with the checkout under test as the working directory; the cluster script is an absolute
 * path, so two checkouts are measured on the same cluster code). With a profile directory, each
 * loop is CPU-profiled alone, in this process and in the cluster's (`loop-<i>-updater.cpuprofile`,
 * `loop-<i>-cluster.cpuprofile`, for Chrome DevTools or speedscope).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { Session } from 'node:inspector/promises';
import { writeFile } from 'node:fs/promises';
import * as k8s from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { silentLogger } from '../src/observability/logger.ts';
import { updaterOptions } from '../src/policy/update-thresholds.ts';
import { kubeUpdaterApi, type UpdaterApi } from '../src/updater/updater-api.ts';
import { UpdaterCaches } from '../src/updater/updater-caches.ts';
import { detectCapabilities } from '../src/controller/updater-component.ts';
import { UpdaterLoop } from '../src/updater/updater-loop.ts';
import { UpdaterMetrics } from '../src/updater/updater-metrics.ts';
import { WatchCache } from '../src/kube/watch-cache.ts';

const [clusterScript, nArg, latencyArg, loopsArg, profileDir] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!clusterScript || !gc) throw new Error('usage: node --expose-gc --import tsx bench/updater-run.ts <cluster script> <N> <latencyMs> <loops>');
const N = Number(nArg ?? 1000);
const latencyMs = Number(latencyArg ?? 0);
const loops = Number(loopsArg ?? 2);
const NOW = Date.UTC(2026, 0, 1, 0, 10);
const MIB = 1024 * 1024;

interface Row {
  verb: string;
  resource: string;
  subresource: string;
  code: number;
  count: number;
}

/** The cluster process, with a way to ask for its request counts. */
async function startCluster(kubeconfig: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', clusterScript!, String(latencyMs), kubeconfig, String(N)], {
    cwd: join(dirname(clusterScript!), '..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const waiting: Array<(line: string) => void> = [];
  let ready!: () => void;
  let failed!: (err: Error) => void;
  const readyPromise = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
  child.on('exit', (code) => failed(new Error(`the cluster process exited (${code})`)));
  lines.on('line', (line) => {
    if (line === 'READY') ready();
    else if (line.startsWith('COUNTS ') || line === 'OK') waiting.shift()?.(line.slice(7));
  });
  await readyPromise;
  return {
    counts: async (): Promise<Row[]> => {
      const answer = new Promise<string>((resolve) => waiting.push(resolve));
      child.stdin.write('counts\n');
      return JSON.parse(await answer) as Row[];
    },
    /** Sends a command the cluster answers with `OK` (profile-start, profile-stop <path>). */
    command: async (line: string): Promise<void> => {
      const answer = new Promise<string>((resolve) => waiting.push(resolve));
      child.stdin.write(`${line}\n`);
      await answer;
    },
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
    },
  };
}

/** Requests in `after` not in `before`, by `VERB resource[/subresource]` (codes other than 2xx noted). */
function callsBetween(before: Row[], after: Row[]): Record<string, number> {
  const key = (r: Row) => `${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''}${r.code >= 300 ? ` (${r.code})` : ''}`;
  const out = new Map<string, number>();
  for (const r of after) out.set(key(r), (out.get(key(r)) ?? 0) + r.count);
  for (const r of before) out.set(key(r), (out.get(key(r)) ?? 0) - r.count);
  return Object.fromEntries([...out].filter(([, n]) => n !== 0).sort());
}

function heapUsed(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

/** Resolves once no pod watch event arrived for `quietMs` (at most `maxMs`). */
async function quiet(caches: UpdaterCaches, quietMs: number, maxMs: number): Promise<void> {
  let last = performance.now();
  caches.onPod(() => (last = performance.now()));
  const start = performance.now();
  while (performance.now() - last < quietMs && performance.now() - start < maxMs) await new Promise((r) => setTimeout(r, 100));
}

const dir = await mkdtemp(join(tmpdir(), 'tailor-bench-updater-'));
const kubeconfig = join(dir, 'kubeconfig');
const cluster = await startCluster(kubeconfig);
try {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  const capabilities = await detectCapabilities(kc, false);
  const rssStart = process.memoryUsage().rss;

  // The pods' cache alone, before anything else is held: its heap per pod.
  let heap0 = heapUsed();
  let podCache: WatchCache<k8s.KubernetesObject> | undefined = new WatchCache({
    kubeConfig: kc,
    resource: { group: '', version: 'v1', plural: 'pods' },
    logger: silentLogger(),
  });
  await podCache.start();
  await podCache.synced();
  const podsHeld = podCache.list().length;
  const podHeapBytes = (heapUsed() - heap0) / podsHeld;
  const podJsonBytes = podCache.list().reduce((sum, p) => sum + JSON.stringify(p).length, 0) / podsHeld;
  await podCache.stop();
  podCache = undefined;
  await new Promise((r) => setTimeout(r, 500)); // the aborted watch lets go of the cache a moment later

  // The updater's own API, with the calls that failed counted by method (the executor only logs them).
  const failed: Record<string, number> = {};
  const real = kubeUpdaterApi(kc);
  const counting =
    <A extends unknown[]>(name: string, call: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      try {
        await call(...args);
      } catch (err) {
        failed[name] = (failed[name] ?? 0) + 1;
        throw err;
      }
    };
  const api: UpdaterApi = {
    resize: counting('resize', real.resize.bind(real)),
    evict: counting('evict', real.evict.bind(real)),
    recordEvent: counting('recordEvent', real.recordEvent.bind(real)),
    ...(real.patchVpaConditions ? { patchVpaConditions: counting('patchVpaConditions', real.patchVpaConditions.bind(real)) } : {}),
  };
  heap0 = heapUsed();
  const caches = new UpdaterCaches({ kubeConfig: kc, logger: silentLogger(), namespaces: undefined, selected: () => true });
  let t = performance.now();
  await caches.start();
  const syncMs = performance.now() - t;
  const pods = caches.sources.pods().length;
  const cachesHeapBytes = heapUsed() - heap0;
  const rssFilled = process.memoryUsage().rss;
  const loop = new UpdaterLoop({
    sources: caches.sources,
    api,
    logger: silentLogger(),
    metrics: new UpdaterMetrics(new Registry()),
    options: updaterOptions(),
    capabilities,
    budget: { resizes: 100_000, evictions: 100_000 },
    clock: () => NOW,
  });
  caches.onPod((pod) => loop.podSeen(pod));
  const runs = [];
  for (let i = 0; i < loops; i++) {
    for (const k of Object.keys(failed)) delete failed[k];
    const before = await cluster.counts();
    const session = profileDir ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      await cluster.command('profile-start');
    }
    const cpu = process.cpuUsage();
    t = performance.now();
    const report = await loop.runOnce(NOW + i * 60_000);
    const wallMs = performance.now() - t;
    const used = process.cpuUsage(cpu);
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(join(profileDir!, `loop-${i + 1}-updater.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
      await cluster.command(`profile-stop ${join(profileDir!, `loop-${i + 1}-cluster.cpuprofile`)}`);
    }
    const count = (entries: Iterable<string>) => {
      const m = new Map<string, number>();
      for (const k of entries) m.set(k, (m.get(k) ?? 0) + 1);
      return Object.fromEntries([...m].sort());
    };
    // Counted once the loop's watch events have arrived: the server counts a request when its
    // answer is written, a moment after the client may have read it.
    await quiet(caches, 500, 30_000);
    const calls = callsBetween(before, await cluster.counts());
    runs.push({
      wallMs,
      cpuMs: (used.user + used.system) / 1000,
      calls,
      failedCalls: { ...failed },
      decisions: count(report.decisions.map((d) => `${d.action} ${d.reason}`)),
      outcomes: count(report.results.map((r) => r.outcome)),
    });
  }
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const steadyRss = process.memoryUsage().rss;
  await caches.stop();
  console.log(
    JSON.stringify({
      n: N,
      latencyMs,
      vpas: caches.sources.vpas().length,
      pods,
      syncMs,
      podHeapBytes,
      podJsonBytes,
      cachesHeapBytes,
      cachesHeapPerPod: cachesHeapBytes / pods,
      rssStartMiB: rssStart / MIB,
      rssFilledMiB: rssFilled / MIB,
      peakRssMiB: peakRss / MIB,
      steadyRssMiB: steadyRss / MIB,
      loops: runs,
    }),
  );
} finally {
  await cluster.stop();
  await rm(dir, { recursive: true, force: true });
}
