/**
 * `npm run bench:updater [-- N] [--latencies 0,20] [--loops 2] [--compare DIR] [--profile DIR]`: updater loops
 * over N VPAs and 2N pods (default 1,000) on kube-sim, without and with simulated latency on every
 * API request. Each run is two processes: the cluster (bench/updater-cluster.ts) and the updater
 * (bench/updater-run.ts), so the updater's CPU time and memory are its own. Prints, per run: the
 * time to fill the watch caches (once per leadership), their heap per pod, RSS (start, caches
 * filled, peak, steady), and per loop the wall and CPU time, the API requests the server counted
 * by verb and resource, the decisions and outcomes. The first loop acts on a quarter of the pods
 * (resizes and evictions); the next ones find them in flight or gone (the cluster does not react
 * between ticks), the steady state of a loop with nothing new to do.
 *
 * `--compare DIR` also runs DIR's bench/updater-run.ts (another checkout, e.g. the main branch;
 * copy this checkout's bench/updater-run.ts into it when it has none) on a fresh cluster from this
 * checkout, alternating with this checkout's, so before and after come from one run.
 * `--profile DIR` CPU-profiles each loop alone, in the updater and in kube-sim, into
 * DIR/<latency>ms-<run>/loop-<i>-{updater,cluster}.cpuprofile.
 * Figures go to docs/updater.md (Cost) and docs/scale.md (Updater).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    latencies: { type: 'string', default: '0,20' },
    loops: { type: 'string', default: '2' },
    compare: { type: 'string' },
    profile: { type: 'string' },
  },
});
const n = Number(positionals[0] ?? 1000);
const latencies = values.latencies.split(',').map(Number);
const loops = Number(values.loops);
const problems = [
  ...(Number.isInteger(n) && n >= 4 ? [] : [`N must be an integer of at least 4, got ${positionals[0]}`]),
  ...(latencies.every((l) => Number.isFinite(l) && l >= 0) ? [] : [`--latencies must be milliseconds separated by commas, got ${values.latencies}`]),
  ...(Number.isInteger(loops) && loops >= 1 ? [] : [`--loops must be a positive integer, got ${values.loops}`]),
];
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(2);
}
const cluster = resolve('bench/updater-cluster.ts');

interface Loop {
  wallMs: number;
  cpuMs: number;
  calls: Record<string, number>;
  failedCalls?: Record<string, number>;
  decisions: Record<string, number>;
  outcomes: Record<string, number>;
}
interface Run {
  vpas: number;
  pods: number;
  syncMs: number;
  podHeapBytes: number;
  podJsonBytes: number;
  cachesHeapPerPod: number;
  rssStartMiB: number;
  rssFilledMiB: number;
  peakRssMiB: number;
  steadyRssMiB: number;
  loops: Loop[];
}

const list = (r: Record<string, number>) =>
  Object.entries(r)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';
const KIB = 1024;

for (const latency of latencies) {
  const sides: Array<[string, string]> = values.compare
    ? [
        [`before (${values.compare})`, values.compare],
        ['after (this checkout)', '.'],
        ['before, again', values.compare],
        ['after, again', '.'],
      ]
    : [['', '.']];
  for (const [index, [label, dir]] of sides.entries()) {
    const profileDir = values.profile ? resolve(join(values.profile, `${latency}ms-${index + 1}`)) : undefined;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'bench/updater-run.ts', cluster, String(n), String(latency), String(loops), ...(profileDir ? [profileDir] : [])],
      { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 2 ** 24 },
    );
    if (run.status !== 0) throw new Error(`bench/updater-run.ts failed (exit ${run.status})`);
    const r = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Run;
    console.log(`\nlatency ${latency} ms per request: ${r.vpas} VPAs, ${r.pods} pods${label ? ` ${label}` : ''}`);
    console.log(`  caches filled (list + watch, once per leadership): ${(r.syncMs / 1000).toFixed(2)} s`);
    console.log(
      `  watch caches' heap: ${(r.cachesHeapPerPod / KIB).toFixed(2)} KiB per pod (all six caches over the pods); the pods' cache alone ${(r.podHeapBytes / KIB).toFixed(2)} KiB per pod (a pod is ${(r.podJsonBytes / KIB).toFixed(2)} KiB of JSON)`,
    );
    console.log(
      `  RSS: start ${r.rssStartMiB.toFixed(1)} MiB, caches filled ${r.rssFilledMiB.toFixed(1)} MiB, peak ${r.peakRssMiB.toFixed(1)} MiB, steady ${r.steadyRssMiB.toFixed(1)} MiB`,
    );
    r.loops.forEach((l, i) => {
      const total = Object.values(l.calls).reduce((a, b) => a + b, 0);
      console.log(
        `  loop ${i + 1}: ${(l.wallMs / 1000).toFixed(2)} s wall, ${(l.cpuMs / 1000).toFixed(2)} s CPU; ${total} API calls (${list(l.calls)}); failed calls: ${list(l.failedCalls ?? {})}`,
      );
      console.log(`    decisions: ${list(l.decisions)}`);
      console.log(`    outcomes: ${list(l.outcomes)}`);
    });
  }
}
