/**
 * `npm run bench:prometheus -- 1000 2000 5000`: for each N, backfills N containers x 8 days into a
 * real Prometheus (promtool, one file per day, two at a time), then runs the Tailor side in its own
 * process (bench/prometheus-tailor.ts) and prints: bootstrap wall time, HTTP queries, bytes
 * received, peak RSS and memory held per tracked container, and the time and query count of one
 * incremental cycle. Containers are spread over namespaces of 50; samples every 5 minutes (the
 * query step), so 2 x 2,304 samples per container.
 *
 * `--compare DIR` also runs DIR's bench/prometheus-tailor.ts (another checkout, e.g. the main
 * branch) against the same Prometheus, alternating with this checkout's, so before and after come
 * from one run on one fixture.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { backfill, startPrometheus } from '../test/support/prometheus-server.ts';
import { cpuSecondsTotal, memory } from './usage-curves.ts';

const DAY = 24 * 3600_000;
const STEP = 5 * 60_000;
const START = Date.UTC(2026, 0, 1);
const END = START + 8 * DAY;
const PER_NAMESPACE = 50;

const argv = process.argv.slice(2);
const compareAt = argv.indexOf('--compare');
const compareDir = compareAt >= 0 ? argv.splice(compareAt, 2)[1] : undefined;
const sizes = argv.map(Number).filter((n) => n > 0);
if (sizes.length === 0) sizes.push(1000, 2000);

function names(i: number): { ns: string; pod: string } {
  return { ns: `ns-${String(Math.floor(i / PER_NAMESPACE)).padStart(3, '0')}`, pod: `app-${String(i).padStart(5, '0')}-x` };
}

/** Writes one day (t in [day, day + DAY), plus END itself on the last day) as OpenMetrics. */
async function writeDay(path: string, n: number, day: number): Promise<void> {
  const out = createWriteStream(path);
  const last = day + DAY >= END ? END : day + DAY - STEP;
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  for (const metric of ['cpu', 'memory'] as const) {
    for (let i = 0; i < n; i++) {
      const { ns, pod } = names(i);
      const labels = `{namespace="${ns}",pod="${pod}",container="app"}`;
      const lines: string[] = [];
      for (let t = day; t <= last; t += STEP) {
        // The counter is the running integral of the usage curve: it only grows, so `rate` sees no reset.
        if (metric === 'cpu') lines.push(`container_cpu_usage_seconds_total${labels} ${cpuSecondsTotal(i, t, START)} ${t / 1000}`);
        else lines.push(`container_memory_working_set_bytes${labels} ${memory(i, t)} ${t / 1000}`);
      }
      await write(`${lines.join('\n')}\n`);
    }
  }
  out.end('# EOF\n');
  await once(out, 'finish');
}

const fmtBytes = (b: number) =>
  b >= 2 ** 30 ? `${(b / 2 ** 30).toFixed(2)} GiB` : b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(1)} MiB` : `${(b / 1024).toFixed(1)} KiB`;

for (const n of sizes) {
  const work = await mkdtemp(join(tmpdir(), `tailor-bench-${n}-`));
  try {
    const t0 = performance.now();
    const files: string[] = [];
    for (let day = START; day < END; day += DAY) {
      const path = join(work, `day-${day}.om`);
      await writeDay(path, n, day);
      files.push(path);
    }
    const t1 = performance.now();
    await backfill(files, join(work, 'data'));
    for (const f of files) await rm(f);
    const t2 = performance.now();
    const server = await startPrometheus({ workDir: work });
    try {
      const sides: Array<[string, string]> = compareDir
        ? [
            ['before (' + compareDir + ')', compareDir],
            ['after (this checkout)', '.'],
            ['before, again', compareDir],
            ['after, again', '.'],
          ]
        : [['', '.']];
      for (const [label, dir] of sides) {
        const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/prometheus-tailor.ts', server.url, String(END), String(STEP)], {
          cwd: dir,
          encoding: 'utf8',
          maxBuffer: 2 ** 24,
        });
        if (run.status !== 0) throw new Error(`bench/prometheus-tailor.ts failed: ${run.stderr}`);
        const r = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
        console.log(
          `\nN = ${n} containers in ${r.namespaces} namespaces, 8 days at ${STEP / 60_000} min (${(2 * n * ((8 * DAY) / STEP)).toLocaleString('en')} samples; fixture written in ${((t1 - t0) / 1000).toFixed(1)} s, promtool backfill ${((t2 - t1) / 1000).toFixed(1)} s)${label ? ` ${label}` : ''}`,
        );
        console.log(
          `  bootstrap:          ${(r.bootstrapMs! / 1000).toFixed(2)} s (CPU ${r.bootstrapCpuMs === undefined ? '?' : (r.bootstrapCpuMs / 1000).toFixed(2)} s), ${r.bootstrapQueries} HTTP queries, ${fmtBytes(r.bootstrapBytes!)} received, ${r.cpuSamples!.toLocaleString('en')} CPU samples (largest ${r.cpuMaxCores === undefined ? '?' : r.cpuMaxCores.toFixed(3)} cores; the curves stay within 2.25), ${r.failed} failed batches`,
        );
        console.log(
          `  memory:             peak RSS ${fmtBytes(r.peakRssBytes!)} (base ${fmtBytes(r.baseRssBytes!)}); held per tracked container ${fmtBytes(r.heldPerContainer!)} (heap + typed arrays), RSS growth after bootstrap ${fmtBytes(r.rssGrowthPerContainer!)} per container; ${r.tracked} tracked, ${r.estimated} with an estimate`,
        );
        console.log(
          `  incremental cycle:  ${r.cycleMs} ms, ${r.cycleQueries} HTTP queries, ${fmtBytes(r.cycleBytes!)} received, ${r.cycleCpuSamples} CPU samples`,
        );
      }
    } finally {
      await server.stop();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
