/**
 * Runs `tailor ...` in this process through main() (no 1.5 s start-up per call) and collects
 * what main() writes as its error line. Commander's own messages and the commands' output still
 * go to the process's streams; tests that read them spawn bin/tailor.mjs instead.
 */
import { main } from '../../src/cli/main.ts';

export interface InProcessResult {
  code: number;
  stderr: string;
}

/** `tailor(['plan', '-f', 'x'])`; fails the test if main() does not settle within `deadlineMs`. */
export async function tailorInProcess(args: readonly string[], deadlineMs = 60_000): Promise<InProcessResult> {
  let stderr = '';
  const err = { write: (chunk: string) => ((stderr += chunk), true) } as unknown as NodeJS.WritableStream;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`tailor ${args.join(' ')} did not finish within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    const code = await Promise.race([main(['node', 'tailor', ...args], err), deadline]);
    return { code, stderr };
  } finally {
    clearTimeout(timer);
  }
}
