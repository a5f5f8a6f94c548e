/**
 * Where the base resident set goes: `tailor run --components recommender,updater,admission` (this
 * build, no VPAs, kube-sim and an empty Prometheus, as bench/base-rss.ts) once per set of node
 * flags, and for each: VmRSS, its split by mapping (/proc/PID/smaps: node's binary, anonymous, the
 * malloc heap, other files), V8's heap spaces (from /metrics) and the CPU time used to get there.
 * Usage: node --import tsx bench/base-rss-probe.ts [--cycles 3] "FLAGS A" "FLAGS B" ...  ("" = none;
 * a word NAME=value sets an environment variable, e.g. "--v8-pool-size=1 MALLOC_ARENA_MAX=1").
 * PROBE_HEAP_SNAPSHOT=1 signals SIGUSR2 before measuring (see below). Decision 0266 has its figures.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startKubeSim } from 'kube-sim';
import { VPA_CRD_MANIFESTS } from '../src/api/vpa-crd-manifests.ts';
import { freePort } from '../src/local-prometheus/free-port.ts';
import { startLocalPrometheus } from '../src/local-prometheus/prometheus-process.ts';

const args = process.argv.slice(2);
const ci = args.indexOf('--cycles');
const cycles = ci >= 0 ? Number(args.splice(ci, 2)[1]) : 3;
const variants = args.length > 0 ? args : [''];

/** RSS (MiB) per mapping group of /proc/PID/smaps. */
function byMapping(pid: number): Record<string, number> {
  const groups: Record<string, number> = {};
  let name = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const path = head[1]!.trim();
      name =
        path === ''
          ? 'anonymous'
          : path.endsWith('/node')
            ? 'node binary'
            : path.startsWith('[')
              ? path
              : path.includes('/lib')
                ? 'shared libraries'
                : `file ${path}`;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) groups[name] = (groups[name] ?? 0) + Number(rss[1]) / 1024;
  }
  return groups;
}

function status(pid: number, field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
}

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function metric(page: string, name: string): number {
  let sum = 0;
  for (const line of page.split('\n')) if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) sum += Number(line.split(' ').at(-1));
  return sum;
}

const work = await mkdtemp(join(tmpdir(), 'tailor-base-rss-probe-'));
const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, port: 0 });
const prometheus = await startLocalPrometheus();
try {
  const kubeconfig = join(work, 'kubeconfig');
  await sim.server.writeKubeconfig(kubeconfig);
  const env = { PATH: process.env['PATH'] ?? '', HOME: work, KUBECONFIG: kubeconfig, TAILOR_PROMETHEUS_URL: prometheus.url };
  for (const flags of variants) {
    const metricsPort = await freePort();
    const admissionPort = await freePort();
    // Words NAME=value (no leading --) are environment variables of the process; the rest node flags.
    const words = flags.split(' ').filter(Boolean);
    const extraEnv = Object.fromEntries(
      words.filter((w) => !w.startsWith('-') && w.includes('=')).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
    );
    const child = spawn(
      process.execPath,
      [
        ...words.filter((w) => w.startsWith('-')),
        'bin/tailor.mjs',
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
      { env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      let page = '';
      const deadline = Date.now() + 300_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`tailor run exited ${child.exitCode}: ${stderr}`);
        if (Date.now() > deadline) throw new Error(`no ${cycles} cycles in 5 min: ${stderr}`);
        page = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
          (r) => r.text(),
          () => '',
        );
        if (metric(page, 'tailor_loop_cycles_total') >= 2 * cycles) break;
        await sleep(500);
      }
      const pid = child.pid!;
      if (process.env['PROBE_HEAP_SNAPSHOT']) {
        // With --heapsnapshot-signal=SIGUSR2 (and --diagnostic-dir=DIR) among the flags: a heap
        // snapshot of the idle process (its RSS figures then include the snapshot's own memory).
        child.kill('SIGUSR2');
        await sleep(15_000);
      }
      const groups = byMapping(pid);
      const heap = (space: string) => metric(page, `nodejs_heap_space_size_total_bytes{space="${space}"}`) / 2 ** 20;
      const spaces = [
        'old',
        'new',
        'code',
        'map',
        'large_object',
        'code_large_object',
        'new_large_object',
        'read_only',
        'shared',
        'trusted',
        'trusted_large_object',
      ];
      const heapLine = spaces
        .map((s) => [s, heap(s)] as const)
        .filter(([, v]) => v > 0)
        .map(([s, v]) => `${s} ${v.toFixed(1)}`)
        .join(', ');
      console.log(
        `flags "${flags}": RSS ${status(pid, 'VmRSS').toFixed(1)} MiB (anon ${status(pid, 'RssAnon').toFixed(1)}, file ${status(pid, 'RssFile').toFixed(1)}), peak ${status(pid, 'VmHWM').toFixed(1)}, CPU ${cpuSeconds(pid).toFixed(2)} s`,
      );
      console.log(
        `  by mapping: ${Object.entries(groups)
          .sort((a, b) => b[1] - a[1])
          .filter(([, v]) => v >= 0.5)
          .map(([k, v]) => `${k} ${v.toFixed(1)}`)
          .join(', ')}`,
      );
      console.log(
        `  V8 heap committed: ${heapLine}; used ${(metric(page, 'nodejs_heap_size_used_bytes') / 2 ** 20).toFixed(1)} of ${(metric(page, 'nodejs_heap_size_total_bytes') / 2 ** 20).toFixed(1)}; external ${(metric(page, 'nodejs_external_memory_bytes') / 2 ** 20).toFixed(1)}`,
      );
    } finally {
      child.kill('SIGTERM');
      // A child ended by a signal has no exit code, only a signal code, and its exit event is gone.
      await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    }
  }
} finally {
  await prometheus.stop();
  await sim.close();
  await rm(work, { recursive: true, force: true });
}
