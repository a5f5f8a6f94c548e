/**
 * Keeps track of the server processes a test or benchmark starts, and kills whatever is still
 * running when the process exits (normally, on an uncaught error, or on SIGINT / SIGTERM unless the
 * process handles the signal itself), so no Prometheus outlives its test even when the test fails.
 */
import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();
let installed = false;

function killAll(): void {
  for (const child of running) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  running.clear();
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      // A process with its own handler for the signal (tailor demo stops gracefully) stops its
      // children itself; the exit hook above still kills whatever is left.
      if (process.listenerCount(signal) > 0) return;
      killAll();
      process.exit(signal === 'SIGINT' ? 130 : 143);
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
