/**
 * `npm run bench:scale -- 1000 10000 100000 [--strategy vpa,tailor] [--memory-budget 512Mi] [--days 8] [--node-flags "..."]`: for
 * each N and strategy, serves N containers x 8 days at 5 min from the synthetic PromQL API
 * (bench/synthetic-prometheus.ts, its own process), runs the Tailor side (bench/prometheus-tailor.ts,
 * its own process, with the node flags of the image's ENTRYPOINT, plus `--node-flags "..."`: the
 * bootstrap, then one incremental cycle) and prints one row: peak and steady
 * RSS, bytes per container (model: heap + typed arrays held; process: steady RSS), bootstrap time
 * and queries, incremental cycle time and queries (wall and CPU time), and the CPU time of an
 * estimate for every container. On stderr: containers estimated, failed batches, the largest CPU
 * sample. `BENCH_CYCLE_PROFILE=FILE.cpuprofile` profiles the cycle. docs/scale.md has the figures.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { parseMemory } from 'kube-basics/quantity';
import { imageEnvironment, imageNodeFlags } from './image-node-flags.ts';

const DAY = 24 * 3600_000;
const STEP = 5 * 60_000;
const END = Date.UTC(2026, 0, 9);

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const strategies = (flag('--strategy') ?? 'vpa,tailor').split(',');
const budgetText = flag('--memory-budget');
const budget = budgetText ? parseMemory(budgetText) : undefined;
/** Days of samples served (the feed still asks for 8): fewer for a quicker, smaller read at large N. */
const days = Number(flag('--days') ?? '8');
/**
 * Node flags of Tailor's side: the image's ENTRYPOINT flags (the product as shipped), then any given
 * here, space-separated (`--node-flags "--heap-growing-percent=0"` runs V8's own heap growth).
 */
const nodeFlags = [...imageNodeFlags(), ...(flag('--node-flags') ?? '').split(' ').filter(Boolean)];
const sizes = args.map(Number).filter((n) => n > 0);
if (sizes.length === 0) sizes.push(1000, 10_000);

const MiB = 2 ** 20;
const mib = (b: number) => `${(b / MiB).toFixed(1)} MiB`;
const kib = (b: number) => `${(b / 1024).toFixed(1)} KiB`;

console.log(`Tailor's side runs with node ${nodeFlags.join(' ')}`);
console.log(
  `${days} days at ${STEP / 60_000} min per container (${((days * DAY) / STEP).toLocaleString('en')} points per resource), synthetic PromQL API${budget ? `, --memory-budget ${budgetText}` : ''}`,
);
console.log(
  '| containers | strategy | peak RSS | steady RSS | peak/steady | model per container | process per container | bootstrap (CPU) | queries | received | cycle (CPU) | cycle queries | estimates (CPU) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const n of sizes) {
  const server = spawn(process.execPath, ['--import', 'tsx', 'bench/synthetic-prometheus.ts', String(n), String(END), String(STEP), String(days)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [line] = (await once(createInterface({ input: server.stdout }), 'line')) as [string];
    const url = line.replace('listening ', '');
    for (const strategy of strategies) {
      const run = spawnSync(
        process.execPath,
        [
          ...nodeFlags,
          '--expose-gc',
          '--import',
          'tsx',
          'bench/prometheus-tailor.ts',
          url,
          String(END),
          String(STEP),
          strategy,
          ...(budget ? [String(budget)] : []),
        ],
        { encoding: 'utf8', maxBuffer: 2 ** 24, env: { ...process.env, ...imageEnvironment() } },
      );
      if (run.status !== 0) throw new Error(`bench/prometheus-tailor.ts failed: ${run.stderr}`);
      const r = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
      const peak = Math.max(r.peakRssBytes!, r.peakRssAfterCycleBytes!);
      console.log(
        `| ${n.toLocaleString('en')} | ${strategy} | ${mib(peak)} | ${mib(r.steadyRssBytes!)} | ${(peak / r.steadyRssBytes!).toFixed(2)} | ${kib(r.heldPerContainer!)} | ${kib(r.steadyRssBytes! / n)} | ${(r.bootstrapMs! / 1000).toFixed(1)} s (${(r.bootstrapCpuMs! / 1000).toFixed(1)} s) | ${r.bootstrapQueries} | ${mib(r.bootstrapBytes!)} | ${r.cycleMs} ms (${r.cycleCpuMs} ms) | ${r.cycleQueries} | ${r.estimateMs} ms (${r.estimateCpuMs} ms) |`,
      );
      console.error(
        `  ${n.toLocaleString('en')} ${strategy}: ${r.estimated}/${r.tracked} containers with an estimate, ${r.failed} failed batches, largest CPU sample ${r.cpuMaxCores!.toFixed(3)} cores`,
      );
    }
  } finally {
    server.kill();
  }
}
