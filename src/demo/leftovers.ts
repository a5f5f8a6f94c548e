/**
 * Whatever way `tailor demo` ends, it leaves nothing behind: the orderly stop removes its temp
 * folder, and this covers the exits that skip it (an uncaught error, a reader closing the output
 * pipe, `process.exit`): at exit, the tracked children (Prometheus, promtool, which write in the
 * folder) are killed first, then the folder is removed, and a folder made for the audit is removed
 * if it stayed empty. Synchronous: nothing asynchronous runs at exit.
 */
import { rmdirSync, rmSync } from 'node:fs';
import { killTrackedChildren } from '../local-prometheus/child-processes.ts';

export interface Leftovers {
  /** Removed with everything in it. */
  tree: string;
  /** Removed only if empty (a folder the demo created for its audit). */
  ifEmpty?: string;
}

/** Removes `leftovers` if the process exits before the returned function is called. */
export function removeAtExit(leftovers: Leftovers): () => void {
  const atExit = () => {
    killTrackedChildren();
    // A killed child may need a moment to let go of its files: a few retries.
    rmSync(leftovers.tree, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    if (leftovers.ifEmpty === undefined) return;
    try {
      rmdirSync(leftovers.ifEmpty);
    } catch {
      // not empty, or gone
    }
  };
  process.on('exit', atExit);
  return () => process.off('exit', atExit);
}
