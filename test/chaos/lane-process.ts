/**
 * Restarts one of the lane's own processes (kube-apiserver, etcd, a node's kubelet or containerd)
 * for the chaos lane's restart faults, the way test/real-cluster/up.sh started it: the same
 * command line, environment and working directory (read from /proc before it stops), in a session
 * of its own, its output appended to the same log, its new pid in the same pid file (so down.sh
 * still finds it). A graceful stop is SIGTERM, then SIGKILL after `graceMs`; a crash is SIGKILL.
 * Data stays where the command line says (etcd keeps its data directory).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Where up.sh keeps a process's pid file and log. */
export interface LaneProcessDirs {
  readonly pids: string;
  readonly logs: string;
}

export interface RestartOptions {
  /** SIGTERM (a graceful stop) or SIGKILL (a crash). */
  readonly signal?: 'SIGTERM' | 'SIGKILL';
  /** How long it stays down before it is started again (ms). */
  readonly downMs?: number;
  /** How long a SIGTERM may take before SIGKILL (ms). */
  readonly graceMs?: number;
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));

/** Stops the process `name` and starts it again as it was; resolves with both pids once the new one runs. */
export async function restartLaneProcess(dirs: LaneProcessDirs, name: string, options: RestartOptions = {}): Promise<{ before: number; after: number }> {
  const pidFile = join(dirs.pids, `${name}.pid`);
  const before = Number(readFileSync(pidFile, 'utf8').trim());
  if (!(before > 0) || !alive(before)) throw new Error(`lane process ${name} (pid ${before}) is not running`);
  const argv = readFileSync(`/proc/${before}/cmdline`, 'utf8')
    .split('\0')
    .filter((a, i, all) => i < all.length - 1 || a !== '');
  const env = Object.fromEntries(
    readFileSync(`/proc/${before}/environ`, 'utf8')
      .split('\0')
      .filter((kv) => kv.includes('='))
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  const cwd = readlinkSync(`/proc/${before}/cwd`);
  process.kill(before, options.signal ?? 'SIGTERM');
  const deadline = Date.now() + (options.graceMs ?? 30_000);
  while (alive(before)) {
    if (Date.now() > deadline) process.kill(before, 'SIGKILL');
    await sleep(50);
  }
  if (options.downMs) await sleep(options.downMs);
  const log = openSync(join(dirs.logs, `${name}.log`), 'a');
  try {
    const child = spawn(argv[0]!, argv.slice(1), { env, cwd, detached: true, stdio: ['ignore', log, log] });
    await new Promise<void>((ok, bad) => child.once('spawn', ok).once('error', bad));
    child.unref();
    writeFileSync(pidFile, `${child.pid}\n`);
    return { before, after: child.pid! };
  } finally {
    closeSync(log);
  }
}
