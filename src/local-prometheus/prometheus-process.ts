/**
 * A local Prometheus (Debian's package) run as a child process: installs it when missing, backfills
 * OpenMetrics files with `promtool tsdb create-blocks-from openmetrics` (in parallel), starts it on
 * a free 127.0.0.1 port with a temp data dir, an optional scrape configuration and a retention long
 * enough to keep old blocks, waits for /-/ready, and stops it (and removes the data) afterwards.
 * Used by the integration tests, the benchmarks and `tailor demo`. Children are killed at process
 * exit too (see child-processes.ts), so none outlives its parent; `detached` starts them in a
 * process group of their own (out of a terminal's Ctrl-C), `signal` aborts a start.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { stopChild, track } from './child-processes.ts';
import { ensureDebianPackage } from './debian-package.ts';
import { freePort } from './free-port.ts';

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** How the children are started: in a process group of their own, and abortable. */
export interface ChildOptions {
  /**
   * Start each child in a process group of its own (`setsid`), so a terminal's Ctrl-C, which goes
   * to the whole foreground group, does not reach it: the caller stops it when it chooses (tailor
   * demo runs its audit first). Such a child is still killed at this process's exit
   * (child-processes.ts); a group-wide SIGKILL no longer reaches it, hence not the default.
   */
  detached?: boolean;
  /** Aborting stops the children started so far (waiting for them to exit) and rejects with the signal's reason. */
  signal?: AbortSignal;
}

function run(cmd: string, args: string[], options: ChildOptions = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: options.detached ?? false });
    track(child);
    let stderr = '';
    const onAbort = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.once('exit', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(signal.reason);
      else if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

/**
 * Turns OpenMetrics files into TSDB blocks in `dataDir`, `parallel` promtool runs at a time; when
 * one fails (or the start is aborted) the others are waited for, so none still writes afterwards.
 */
export async function backfill(files: readonly string[], dataDir: string, parallel = 2, options: ChildOptions = {}): Promise<void> {
  const limit = pLimit(parallel);
  const results = await Promise.allSettled(
    files.map((f) => limit(() => run('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', '--quiet', f, dataDir], options))),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Polls `url` until it answers 2xx; fails early when the child exits or `signal` aborts, or after `timeoutMs`. */
export async function waitReady(url: string, child: { exitCode: number | null }, stderr: () => string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
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

export interface LocalPrometheusOptions extends ChildOptions {
  /** OpenMetrics files to backfill before start (each becomes TSDB blocks). */
  files?: readonly string[];
  /** The whole prometheus.yml (default: no scrape jobs, `scrape_interval: 1h`). */
  config?: string;
  /** Where to work (default: a new temp dir, removed on stop). */
  workDir?: string;
  /** Extra command-line flags for prometheus. */
  extraArgs?: readonly string[];
}

export interface LocalPrometheus extends RunningServer {
  port: number;
  /** The process id of the prometheus child (to check it is gone after `stop()`). */
  pid: number | undefined;
  /** The prometheus.yml in use (for `/-/reload` after rewriting it). */
  configPath: string;
}

/** Starts a (backfilled) Prometheus; `stop()` ends it and removes its data unless `workDir` was given. */
export async function startLocalPrometheus(options: LocalPrometheusOptions = {}): Promise<LocalPrometheus> {
  const children: ChildOptions = { ...(options.detached ? { detached: true } : {}), ...(options.signal ? { signal: options.signal } : {}) };
  ensureDebianPackage('prometheus', ['prometheus', 'promtool']);
  options.signal?.throwIfAborted();
  const workDir = options.workDir ?? (await mkdtemp(join(tmpdir(), 'tailor-prom-')));
  const removeWorkDir = () => (options.workDir ? Promise.resolve() : rm(workDir, { recursive: true, force: true }));
  const dataDir = join(workDir, 'data');
  const configPath = join(workDir, 'prometheus.yml');
  try {
    if (options.files && options.files.length > 0) await backfill(options.files, dataDir, 2, children);
    await writeFile(configPath, options.config ?? 'global:\n  scrape_interval: 1h\n');
    options.signal?.throwIfAborted();
  } catch (err) {
    await removeWorkDir();
    throw err;
  }
  const server = await startServerProcess({
    ...children,
    command: 'prometheus',
    args: (port) => [
      `--config.file=${configPath}`,
      `--storage.tsdb.path=${dataDir}`,
      '--storage.tsdb.retention.time=3650d',
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
      ...(options.extraArgs ?? []),
    ],
    readyPath: '/-/ready',
    readyTimeoutMs: 60_000,
    cleanup: removeWorkDir,
  });
  return { ...server, configPath };
}

/** How to start a server child process that answers HTTP on 127.0.0.1. */
export interface ServerProcessSpec extends ChildOptions {
  command: string;
  /** Its arguments, given the free port it must listen on. */
  args(port: number): string[];
  /** A path that answers 2xx once the server is ready (e.g. `/-/ready`, `/health`). */
  readyPath: string;
  readyTimeoutMs: number;
  /** Run after the process has stopped (e.g. remove its data). */
  cleanup?: () => Promise<void>;
}

/** A started server process: its URL, port and pid, and `stop()` (SIGTERM, then SIGKILL; then cleanup). */
export interface ServerProcess extends RunningServer {
  port: number;
  pid: number | undefined;
}

/**
 * Starts a server on a free port, tracked so it dies with this process, and waits until it is
 * ready; a server that exits or is not ready in time, or whose start is aborted, is stopped (and
 * cleaned up) and the error carries the end of its stderr. Prometheus and the tests' VictoriaMetrics start this way.
 */
export async function startServerProcess(spec: ServerProcessSpec): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(spec.command, spec.args(port), { stdio: ['ignore', 'ignore', 'pipe'], detached: spec.detached ?? false });
  track(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-10_000)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    await spec.cleanup?.();
  };
  try {
    await waitReady(`${url}${spec.readyPath}`, child, () => stderr, spec.readyTimeoutMs, spec.signal);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, port, pid: child.pid, stop };
}
