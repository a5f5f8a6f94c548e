/**
 * Runs `tailor ...` in this process through main() (no 1.5 s start-up per call) and collects
 * what main() writes as its error line. Commander's own messages and the commands' output still
 * go to the process's streams; tests that read them spawn bin/tailor.mjs instead. With
 * `allStderr`, whatever the command itself writes to process.stderr is collected too (and not
 * shown), so a test can check that nothing but the one error line reached stderr.
 */
import { main } from '../../src/cli/main.ts';

export interface InProcessResult {
  code: number;
  stderr: string;
}

export interface InProcessOptions {
  /** Fails the test if main() does not settle within this long (ms). */
  deadlineMs?: number;
  /** Also collect process.stderr's writes while the command runs. */
  allStderr?: boolean;
}

/** `tailor(['plan', '-f', 'x'])`; fails the test if main() does not settle in time. */
export async function tailorInProcess(args: readonly string[], options: number | InProcessOptions = {}): Promise<InProcessResult> {
  const { deadlineMs = 60_000, allStderr = false } = typeof options === 'number' ? { deadlineMs: options } : options;
  let stderr = '';
  const collect = (chunk: string | Uint8Array) => ((stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')), true);
  const err = { write: collect } as unknown as NodeJS.WritableStream;
  const processWrite = process.stderr.write;
  if (allStderr) process.stderr.write = collect as typeof process.stderr.write;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`tailor ${args.join(' ')} did not finish within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    const code = await Promise.race([main(['node', 'tailor', ...args], err), deadline]);
    return { code, stderr };
  } finally {
    clearTimeout(timer);
    process.stderr.write = processWrite;
  }
}
