/**
 * Whether a test tool built once from the Go module proxy (Helm, Thanos, ...) is cached: runs its
 * build script with `--check`, which builds nothing, prints the binary's path last and exits 0
 * when it is there, or says why not and exits non-zero. The checks that need the tool skip, saying
 * that line, when it is not (CI never builds them).
 */
import { spawnSync } from 'node:child_process';

/** `{ path }` of the cached binary, or `{ skip }` with the build script's reason. */
export function cachedTool(buildScript: string): { path: string } | { skip: string } {
  const check = spawnSync('bash', [buildScript, '--check'], { encoding: 'utf8' });
  const said = check.stdout.trim().split('\n').at(-1) ?? '';
  if (check.status === 0) return { path: said };
  return { skip: said || check.stderr.trim() || `${buildScript} --check exited ${check.status}` };
}
