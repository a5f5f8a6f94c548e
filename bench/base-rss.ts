/**
 * Base memory of the controller: `tailor run --components recommender,updater,admission` against
 * kube-sim (with the VPA CRDs, no VPA) and an empty local Prometheus, once from the compiled bundle
 * (what `npm ci` builds and the image runs) and once from the TypeScript sources through tsx (the
 * baseline: how it ran before), in the same run. Each process runs until its loops have completed
 * a few cycles; then its resident set (VmRSS) and peak (VmHWM) are read from /proc.
 * Usage: npm run bench:base-rss [-- --cycles 3]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startKubeSim } from 'kube-sim';
import { VPA_CRD_MANIFESTS } from '../src/api/vpa-crd-manifests.ts';
import { freePort } from '../src/local-prometheus/free-port.ts';
import { startLocalPrometheus } from '../src/local-prometheus/prometheus-process.ts';

const cyclesArg = process.argv.indexOf('--cycles');
const cycles = cyclesArg > 0 ? Number(process.argv[cyclesArg + 1]) : 3;

/** VmRSS and VmHWM of a process, in MiB. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** The sum of a counter's samples in a /metrics page (0 when absent). */
function counter(page: string, name: string): number {
  let sum = 0;
  for (const line of page.split('\n')) if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) sum += Number(line.split(' ').at(-1));
  return sum;
}

async function measure(label: string, command: readonly string[], env: NodeJS.ProcessEnv): Promise<{ label: string; rss: number; peak: number }> {
  const metricsPort = await freePort();
  const admissionPort = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...command, 'run', '--components', 'recommender,updater,admission', '--interval', '10s', '--no-leader-elect', '--metrics-address', '127.0.0.1', '--metrics-port', String(metricsPort), '--admission-address', '127.0.0.1', '--admission-port', String(admissionPort), '--admission-namespace', 'default', '--log-level', 'warn'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const deadline = Date.now() + 300_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${label}: tailor run exited ${child.exitCode}: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`${label}: no ${cycles} cycles within 5 min: ${stderr}`);
      const page = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text(), () => '');
      // Both loops have run `cycles` times: the process holds what it holds in steady state.
      if (counter(page, 'tailor_loop_cycles_total') >= 2 * cycles) break;
      await sleep(500);
    }
    return { label, ...memory(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  }
}

const work = await mkdtemp(join(tmpdir(), 'tailor-base-rss-'));
const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, port: 0 });
const prometheus = await startLocalPrometheus();
try {
  const kubeconfig = join(work, 'kubeconfig');
  await sim.server.writeKubeconfig(kubeconfig);
  const env = { PATH: process.env['PATH'] ?? '', HOME: work, KUBECONFIG: kubeconfig, TAILOR_PROMETHEUS_URL: prometheus.url };
  const bundle = await measure('compiled bundle (bin/tailor.mjs)', ['bin/tailor.mjs'], env);
  const sources = await measure('TypeScript sources through tsx', ['--import', 'tsx', '--input-type=module', '-e', "const { main } = await import('./src/cli/main.ts'); process.exitCode = await main(['node', 'tailor', ...process.argv.slice(1)]);", '--'], env);
  console.log(`tailor run --components recommender,updater,admission, no VPAs, after ${cycles} cycles of each loop:`);
  console.log('| process | RSS MiB | peak RSS MiB |');
  console.log('|---|---|---|');
  for (const m of [bundle, sources]) console.log(`| ${m.label} | ${m.rss.toFixed(1)} | ${m.peak.toFixed(1)} |`);
  console.log(`bundle / sources: RSS ${(bundle.rss / sources.rss).toFixed(2)}x, peak ${(bundle.peak / sources.peak).toFixed(2)}x`);
} finally {
  await prometheus.stop();
  await sim.close();
  await rm(work, { recursive: true, force: true });
}
