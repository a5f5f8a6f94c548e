/**
 * `tailor` as a child process in a test: its stderr collected, its exit awaited, and killed when the
 * test ends if it is still running (tests that run `tailor run` as a user would).
 * Example: `const p = spawnTailor(t, ['run', '--components', 'admission', …]); … p.child.kill('SIGTERM');
 * assert.equal(await p.exited, 0, p.stderr());`
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import type { TestContext } from 'node:test';

export interface TailorProcess {
  readonly child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** The exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
}

/** Starts `node bin/tailor.mjs <args>` (cwd from `options`, default this process's). */
export function spawnTailor(t: TestContext, args: readonly string[], options: Pick<SpawnOptions, 'cwd' | 'env'> = {}): TailorProcess {
  const child = spawn(process.execPath, ['bin/tailor.mjs', ...args], { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, stderr: () => stderr, exited };
}
