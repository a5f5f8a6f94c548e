/**
 * Finds the project's real traces (`shared/traces/`), which sit beside the repository
 * (`<repo>/../shared/traces/`). A worktree may sit deeper, so each ancestor of the repository is
 * tried in turn: the nearest `shared/traces` wins. Missing traces are an error, never a skip.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The Azure CPU trace's file name. */
export const AZURE_TRACE = 'azure_v1_cpu.csv';

export class SharedTracesNotFoundError extends Error {
  override readonly name = 'SharedTracesNotFoundError';
}

/** The path of `file` in the nearest `shared/traces/` beside `repoRoot` or one of its ancestors. */
export function locateSharedTrace(repoRoot: string, file = AZURE_TRACE): string {
  const tried: string[] = [];
  let dir = dirname(resolve(repoRoot));
  for (;;) {
    const candidate = join(dir, 'shared', 'traces', file);
    tried.push(candidate);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new SharedTracesNotFoundError(`real trace ${file} not found; looked at: ${tried.join(', ')}`);
}
