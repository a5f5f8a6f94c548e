/**
 * The real usage traces kept in the repository (`traces/`, gzip-compressed; licence and citation in
 * `traces/README.md`), for the quality bench and the tests. Everything they need is inside the
 * checkout: a missing file is an error, never a skip.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The Azure Public Dataset V1 CPU trace (34 VMs, CPU only). */
export const AZURE_TRACE = 'azure_v1_cpu.csv.gz';

/** The Bitbrains GWA-T-12 "Rnd" 2013-07 trace (39 VMs, CPU and memory, raw and irregular). */
export const BITBRAINS_TRACE = 'bitbrains_rnd_2013-7.csv.gz';

/** The Google cluster trace 2011 per job (169 jobs, CPU and memory, up to 10 days with whole days missing; scale assumed). */
export const GOOGLE_2011_TRACE = 'google_2011_jobs.csv.gz';

export class RealTraceNotFoundError extends Error {
  override readonly name = 'RealTraceNotFoundError';
}

/** The path of `file` in `<repoRoot>/traces/`. */
export function realTracePath(repoRoot: string, file: string): string {
  const path = join(repoRoot, 'traces', file);
  if (!existsSync(path)) throw new RealTraceNotFoundError(`real trace ${file} not found at ${path}; it ships in the repository's traces/ folder`);
  return path;
}
