/**
 * The node flags of the image's ENTRYPOINT (what comes between "node" and the entry script) and its
 * allocator's environment, so the benches run Tailor's process as the image does
 * (bench/base-rss.ts, bench/scale.ts, bench/upstream-recommender.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** The flags of `ENTRYPOINT ["node", ...flags, "bin/tailor.mjs"]` in a Dockerfile's text. */
export function imageNodeFlags(dockerfile: string = readFileSync('Dockerfile', 'utf8')): string[] {
  const line = /^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(dockerfile);
  if (!line) throw new Error('Dockerfile: no ENTRYPOINT in exec form');
  const argv = JSON.parse(line[1]!) as string[];
  if (argv[0] !== 'node' || argv.at(-1) !== 'bin/tailor.mjs') throw new Error(`Dockerfile: ENTRYPOINT ${line[1]} is not ["node", ...flags, "bin/tailor.mjs"]`);
  return argv.slice(1, -1);
}

/** Variables of the image's `ENV` lines that change how node manages memory (the allocator). */
const MEMORY_VARIABLES = new Set(['LD_PRELOAD', 'MALLOC_CONF']);

/**
 * The image's memory environment (`ENV LD_PRELOAD=libjemalloc.so.2`, ...), as this host can run it:
 * a preloaded library this host does not have is left out, with a line on stderr saying so (the
 * figures are then glibc malloc's, unlike the image's).
 */
export function imageEnvironment(dockerfile: string = readFileSync('Dockerfile', 'utf8')): Record<string, string> {
  const env: Record<string, string> = {};
  for (const m of dockerfile.matchAll(/^ENV\s+([A-Z_]+)=(\S+)\s*$/gm)) if (MEMORY_VARIABLES.has(m[1]!)) env[m[1]!] = m[2]!;
  if (env['LD_PRELOAD'] && !hostHasLibrary(env['LD_PRELOAD'])) {
    process.stderr.write(
      `bench: this host has no ${env['LD_PRELOAD']} (the image preloads it; apt-get install libjemalloc2): Tailor's side runs with glibc's malloc, unlike the image\n`,
    );
    delete env['LD_PRELOAD'];
    delete env['MALLOC_CONF'];
  }
  return env;
}

/** Whether the dynamic linker finds a library by its name (`ldconfig -p`), or it is a path that exists. */
function hostHasLibrary(name: string): boolean {
  if (name.includes('/')) return existsSync(name);
  const cache = spawnSync('ldconfig', ['-p'], { encoding: 'utf8' });
  return cache.status === 0 && cache.stdout.split('\n').some((line) => line.trim().startsWith(`${name} `));
}
