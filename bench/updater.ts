/**
 * `npm run bench:updater`: one full updater loop over 1,000 VPAs and 2,000 pods on kube-sim
 * (bench/updater-cluster.ts, in its own process so only the updater's CPU is measured), without
 * and with 20 ms of simulated latency on every API request. Prints, per run: the time to fill the
 * watch caches (once per leadership, not per loop), the wall and CPU time of one loop (plan +
 * resizes, evictions and events sent), the API calls of the loop and the decisions made (equal in
 * both runs). Figures go to docs/updater.md (Cost).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { silentLogger } from '../src/observability/logger.ts';
import { updaterOptions } from '../src/policy/update-thresholds.ts';
import { kubeUpdaterApi, type UpdaterApi } from '../src/updater/updater-api.ts';
import { UpdaterCaches } from '../src/updater/updater-caches.ts';
import { detectCapabilities } from '../src/controller/updater-component.ts';
import { UpdaterLoop } from '../src/updater/updater-loop.ts';
import { UpdaterMetrics } from '../src/updater/updater-metrics.ts';

const LATENCIES = [0, 20];
const NOW = Date.UTC(2026, 0, 1, 0, 10);

async function run(latencyMs: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tailor-bench-updater-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/updater-cluster.ts', String(latencyMs), kubeconfig], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    let out = '';
    child.stdout.setEncoding('utf8');
    while (!out.includes('READY')) {
      const [chunk] = (await once(child.stdout, 'data')) as [string];
      out += chunk;
    }
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(kubeconfig);
    const calls = { resize: 0, evict: 0, event: 0 };
    const real = kubeUpdaterApi(kc);
    const api: UpdaterApi = {
      resize: (r, m) => ((calls.resize += 1), real.resize(r, m)),
      evict: (ns, n, uid) => ((calls.evict += 1), real.evict(ns, n, uid)),
      recordEvent: (e) => ((calls.event += 1), real.recordEvent(e)),
    };
    const capabilities = await detectCapabilities(kc, false);
    const caches = new UpdaterCaches({ kubeConfig: kc, logger: silentLogger(), namespaces: undefined, selected: () => true });
    let t = performance.now();
    await caches.start();
    const syncMs = performance.now() - t;
    const loop = new UpdaterLoop({ sources: caches.sources, api, logger: silentLogger(), metrics: new UpdaterMetrics(new Registry()), options: updaterOptions(), capabilities, budget: { resizes: 10_000, evictions: 10_000 } });
    const cpu = process.cpuUsage();
    t = performance.now();
    const report = await loop.runOnce(NOW);
    const loopMs = performance.now() - t;
    const used = process.cpuUsage(cpu);
    await caches.stop();
    const decisions = new Map<string, number>();
    for (const d of report.decisions) decisions.set(`${d.action} ${d.reason}`, (decisions.get(`${d.action} ${d.reason}`) ?? 0) + 1);
    const outcomes = new Map<string, number>();
    for (const r of report.results) outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1);
    const total = calls.resize + calls.evict + calls.event;
    console.log(`latency ${latencyMs} ms per request: ${report.decisions.length} pods, ${caches.sources.vpas().length} VPAs`);
    console.log(`  caches filled (list + watch, once per leadership): ${(syncMs / 1000).toFixed(2)} s`);
    console.log(`  one loop: ${(loopMs / 1000).toFixed(2)} s wall, ${((used.user + used.system) / 1e6).toFixed(2)} s CPU`);
    console.log(`  API calls in the loop: ${total} (resizes ${calls.resize}, evictions ${calls.evict}, events ${calls.event}; no reads: served from the caches)`);
    console.log(`  decisions: ${[...decisions].sort().map(([k, n]) => `${k} ${n}`).join(', ')}`);
    console.log(`  outcomes: ${[...outcomes].sort().map(([k, n]) => `${k} ${n}`).join(', ')}`);
  } finally {
    child.stdin.end();
    await once(child, 'exit');
    await rm(dir, { recursive: true, force: true });
  }
}

for (const latency of LATENCIES) await run(latency);
