/**
 * Keeps track of the server processes a test, a benchmark or `tailor demo` starts, and kills
 * whatever is still running when the process exits (normally, on an uncaught error, or on SIGINT /
 * SIGTERM / SIGHUP unless the process handles the signal itself), so no Prometheus outlives its
 * parent even when the parent fails. A child started in a process group of its own (`detached`,
 * so a terminal's Ctrl-C does not reach it) depends on this: nothing else ends it.
 */
import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();
let installed = false;

/** SIGKILLs every tracked child still running (at exit, or before removing the files they write). */
export function killTrackedChildren(): void {
  for (const child of running) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  running.clear();
}

/** The exit codes of a shell for a process ended by these signals (128 + the signal's number). */
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killTrackedChildren);
  for (const [signal, code] of Object.entries(SIGNAL_EXIT_CODES) as Array<[NodeJS.Signals, number]>) {
    process.once(signal, () => {
      // A process with its own handler for the signal (tailor demo stops gracefully) stops its
      // children itself; the exit hook above still kills whatever is left.
      if (process.listenerCount(signal) > 0) return;
      killTrackedChildren();
      process.exit(code);
    });
  }
}

/** Registers a child to be killed at exit; forgotten once it exits by itself. */
export function track(child: ChildProcess): void {
  install();
  running.add(child);
  child.once('exit', () => running.delete(child));
}

/** Stops a child: SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  running.delete(child);
}
