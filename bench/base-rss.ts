/**
 * Base memory of the controller: `tailor run --components recommender,updater,admission` against
 * kube-sim (with the VPA CRDs, no VPA) and an empty local Prometheus, both ways in one run:
 * - before: the baseline commit's build (default: the last commit before decision 0243: one
 *   bundle with comments, every command loaded at start, node's default flags), exported with
 *   `git archive` into a temp directory and built there with its own scripts/build.mjs, run with
 *   the node flags of its own Dockerfile's ENTRYPOINT (none before decision 0244);
 * - after: this checkout's build (`node scripts/build.mjs` first), run with the node flags of the
 *   image's ENTRYPOINT (read from the Dockerfile): the product as shipped.
 * Each process runs until its loops have completed a few cycles; then its resident set (VmRSS, with
 * its anonymous and file-backed parts) and peak (VmHWM) are read from /proc. It also times
 * `tailor --version` both ways (median of 5) against `node -e 0`.
 * Usage: npm run bench:base-rss [-- --cycles 3] [--baseline <git ref>]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startKubeSim } from 'kube-sim';
import { VPA_CRD_MANIFESTS } from '../src/api/vpa-crd-manifests.ts';
import { imageEnvironment, imageNodeFlags } from './image-node-flags.ts';
import { freePort } from '../src/local-prometheus/free-port.ts';
import { startLocalPrometheus } from '../src/local-prometheus/prometheus-process.ts';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : fallback;
};
const cycles = Number(flag('--cycles', '3'));
/** main before decision 0243 (lazy commands, a comment-free bundle, the image's node flags). */
const baselineRef = flag('--baseline', 'cd5962673235aedecadaca206b7b4cfee2bff333');

interface Memory {
  rss: number;
  peak: number;
  anon: number;
  file: number;
}

/** VmRSS, VmHWM, RssAnon and RssFile of a process, in MiB. */
function memory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024, anon: kib('RssAnon') / 1024, file: kib('RssFile') / 1024 };
}

/** The sum of a counter's samples in a /metrics page (0 when absent). */
function counter(page: string, name: string): number {
  let sum = 0;
  for (const line of page.split('\n')) if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) sum += Number(line.split(' ').at(-1));
  return sum;
}

async function measure(label: string, command: readonly string[], env: NodeJS.ProcessEnv): Promise<Memory & { label: string }> {
  const metricsPort = await freePort();
  const admissionPort = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...command,
      'run',
      '--components',
      'recommender,updater,admission',
      '--interval',
      '10s',
      '--no-leader-elect',
      '--metrics-address',
      '127.0.0.1',
      '--metrics-port',
      String(metricsPort),
      '--admission-address',
      '127.0.0.1',
      '--admission-port',
      String(admissionPort),
      '--admission-namespace',
      'default',
      '--log-level',
      'warn',
    ],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const deadline = Date.now() + 300_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${label}: tailor run exited ${child.exitCode}: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`${label}: no ${cycles} cycles within 5 min: ${stderr}`);
      const page = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
        (r) => r.text(),
        () => '',
      );
      // Both loops have run `cycles` times: the process holds what it holds in steady state.
      if (counter(page, 'tailor_loop_cycles_total') >= 2 * cycles) break;
      await sleep(500);
    }
    return { label, ...memory(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    // A child ended by a signal has no exit code, only a signal code, and its exit event is gone.
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  }
}

/** Median wall time of `node ...argv` over `runs` runs, in seconds. */
function medianSeconds(argv: readonly string[], runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, argv, { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`node ${argv.join(' ')} exited ${r.status}`);
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

/** Builds `cwd` with its own scripts/build.mjs; fails with its output. */
function buildIn(cwd: string): void {
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build in ${cwd} failed: ${r.stderr}`);
}

const work = await mkdtemp(join(tmpdir(), 'tailor-base-rss-'));
const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, port: 0 });
const prometheus = await startLocalPrometheus();
try {
  // The baseline: its sources as committed, this checkout's node_modules (same lock file).
  const baseline = join(work, 'baseline');
  const exported = spawnSync('bash', ['-c', `mkdir -p '${baseline}' && git archive '${baselineRef}' | tar -x -C '${baseline}'`], { encoding: 'utf8' });
  if (exported.status !== 0) throw new Error(`git archive ${baselineRef}: ${exported.stderr}`);
  symlinkSync(join(process.cwd(), 'node_modules'), join(baseline, 'node_modules'));
  buildIn(baseline);
  buildIn(process.cwd());
  const nodeFlags = imageNodeFlags();

  const kubeconfig = join(work, 'kubeconfig');
  await sim.server.writeKubeconfig(kubeconfig);
  const env = { PATH: process.env['PATH'] ?? '', HOME: work, KUBECONFIG: kubeconfig, TAILOR_PROMETHEUS_URL: prometheus.url };
  // The baseline as its image ran it: the node flags of its own Dockerfile's ENTRYPOINT (none before decision 0244).
  let baselineFlags: string[] = [];
  let baselineEnv: Record<string, string> = {};
  try {
    baselineFlags = imageNodeFlags(readFileSync(join(baseline, 'Dockerfile'), 'utf8'));
    baselineEnv = imageEnvironment(readFileSync(join(baseline, 'Dockerfile'), 'utf8'));
  } catch {
    // no Dockerfile, or an ENTRYPOINT of another shape: node's defaults
  }
  const before = await measure(
    `before: ${baselineRef.slice(0, 7)}'s bundle, ${baselineFlags.length > 0 ? `its image flags ${baselineFlags.join(' ')}` : 'default flags'}`,
    [...baselineFlags, join(baseline, 'bin/tailor.mjs')],
    { ...env, ...baselineEnv },
  );
  const imageEnv = imageEnvironment();
  const imageEnvText = Object.entries(imageEnv)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const after = await measure(
    `after: this build, image flags ${nodeFlags.join(' ') || '(none)'}${imageEnvText ? `, ${imageEnvText}` : ''}`,
    [...nodeFlags, 'bin/tailor.mjs'],
    { ...env, ...imageEnv },
  );
  console.log(`tailor run --components recommender,updater,admission, no VPAs, after ${cycles} cycles of each loop (MiB):`);
  console.log('| process | RSS | anonymous | file-backed | peak RSS |');
  console.log('|---|---|---|---|---|');
  for (const m of [before, after]) console.log(`| ${m.label} | ${m.rss.toFixed(1)} | ${m.anon.toFixed(1)} | ${m.file.toFixed(1)} | ${m.peak.toFixed(1)} |`);
  console.log(`after / before: RSS ${(after.rss / before.rss).toFixed(2)}x, peak ${(after.peak / before.peak).toFixed(2)}x`);

  const versionBefore = medianSeconds([...baselineFlags, join(baseline, 'bin/tailor.mjs'), '--version']);
  const versionAfter = medianSeconds([...nodeFlags, 'bin/tailor.mjs', '--version']);
  const bare = medianSeconds(['-e', '0']);
  console.log(`tailor --version (median of 5): before ${versionBefore.toFixed(2)} s, after ${versionAfter.toFixed(2)} s; node -e 0 ${bare.toFixed(2)} s`);
} finally {
  await prometheus.stop();
  await sim.close();
  await rm(work, { recursive: true, force: true });
}
