/**
 * A real Prometheus (Debian's package, 2.42) for integration tests and the benchmark: installs it
 * when missing, backfills OpenMetrics files with `promtool tsdb create-blocks-from openmetrics`
 * (one file per day, run in parallel), starts it on a free 127.0.0.1 port with a temp data dir and
 * a retention long enough to keep the old blocks, waits for /-/ready, and stops it (and removes
 * the data) afterwards. Children are killed at process exit too.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { stopChild, track } from './child-processes.ts';
import { ensureDebianPackage } from './debian-package.ts';
import { openMetricsText, type FixtureSeries } from './fixture-series.ts';
import { freePort } from './free-port.ts';

const DAY = 24 * 3600_000;

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    track(child);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`))));
  });
}

/** Writes the series as one OpenMetrics file per UTC day into `dir`; returns the file paths. */
export async function writeOpenMetricsByDay(series: readonly FixtureSeries[], dir: string): Promise<string[]> {
  let min = Infinity;
  let max = -Infinity;
  for (const s of series) {
    for (const [t] of s.samples) {
      min = Math.min(min, t);
      max = Math.max(max, t);
    }
  }
  const files: string[] = [];
  for (let day = Math.floor(min / DAY) * DAY; day <= max; day += DAY) {
    const text = openMetricsText(series, day, day + DAY);
    if (text === null) continue;
    const path = join(dir, `day-${day}.om`);
    await writeFile(path, text);
    files.push(path);
  }
  return files;
}

/** Turns OpenMetrics files into TSDB blocks in `dataDir`, `parallel` promtool runs at a time. */
export async function backfill(files: readonly string[], dataDir: string, parallel = 2): Promise<void> {
  const limit = pLimit(parallel);
  await Promise.all(files.map((f) => limit(() => run('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', '--quiet', f, dataDir]))));
}

async function waitReady(url: string, child: { exitCode: number | null }, stderr: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode} before it was ready: ${stderr().slice(-2000)}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} not ready after ${timeoutMs} ms: ${stderr().slice(-2000)}`);
}

export interface PrometheusStartOptions {
  /** Small fixtures: written per day and backfilled. */
  series?: readonly FixtureSeries[];
  /** Pre-written OpenMetrics files (large data, e.g. the benchmark). */
  files?: readonly string[];
  /** Where to work (default: a new temp dir, removed on stop). */
  workDir?: string;
}

/** Starts a backfilled Prometheus; `stop()` ends it and removes its data. */
export async function startPrometheus(options: PrometheusStartOptions = {}): Promise<RunningServer> {
  ensureDebianPackage('prometheus', ['prometheus', 'promtool']);
  const workDir = options.workDir ?? (await mkdtemp(join(tmpdir(), 'tailor-prom-')));
  const dataDir = join(workDir, 'data');
  const files = [...(options.files ?? [])];
  if (options.series) files.push(...(await writeOpenMetricsByDay(options.series, workDir)));
  await backfill(files, dataDir);
  const config = join(workDir, 'prometheus.yml');
  await writeFile(config, 'global:\n  scrape_interval: 1h\n');
  const port = await freePort();
  const child = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${dataDir}`,
      '--storage.tsdb.retention.time=3650d',
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  track(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-10_000)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    if (!options.workDir) await rm(workDir, { recursive: true, force: true });
  };
  try {
    await waitReady(`${url}/-/ready`, child, () => stderr, 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}

export { waitReady };
