/**
 * The node flags of the image's ENTRYPOINT (what comes between "node" and the entry script), so the
 * benches run Tailor's process as the image does (bench/base-rss.ts, bench/scale.ts).
 */
import { readFileSync } from 'node:fs';

/** The flags of `ENTRYPOINT ["node", ...flags, "bin/tailor.mjs"]` in a Dockerfile's text. */
export function imageNodeFlags(dockerfile: string = readFileSync('Dockerfile', 'utf8')): string[] {
  const line = /^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(dockerfile);
  if (!line) throw new Error('Dockerfile: no ENTRYPOINT in exec form');
  const argv = JSON.parse(line[1]!) as string[];
  if (argv[0] !== 'node' || argv.at(-1) !== 'bin/tailor.mjs') throw new Error(`Dockerfile: ENTRYPOINT ${line[1]} is not ["node", ...flags, "bin/tailor.mjs"]`);
  return argv.slice(1, -1);
}
