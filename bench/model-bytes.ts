/**
 * Bytes per tracked container of each strategy's usage model, side by side in one run (issue 15
 * item 5: `tailor` at most 4 KiB per container), with the ratio to `vpa`.
 *   npm run bench:model-bytes -- [containers=2000] [days=8] [strategies=vpa,tailor,tailor-low-churn]
 * Each strategy runs in a process of its own and feeds `containers` models the `realistic` stream of
 * bench/recommender-model.ts (one CPU and one memory sample a minute, a daily cycle with noise). The
 * figure is a slope: JS heap + typed-array bytes after all models minus after the first half, over
 * the second half's models. Code compiled on the way and other one-off costs fall in the first half
 * and do not count (bench/recommender-model.ts divides them by the containers, so it reads higher
 * for few containers). Engine bookkeeping outside the heap (~100 bytes per typed array) is not in
 * either figure. The default of 2,000 containers keeps the slope steady (about 30 s): at 400 the
 * heap part moved by 1-2 KiB from run to run (unrelated allocations divided by 200 models); at 2,000
 * and 4,000 three runs agreed within 60 bytes.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createStrategyRegistry } from '../src/model/builtin-strategies.ts';
import type { UsageModel } from '../src/model/types.ts';
import { seededNoise } from './bench-args.ts';

const containers = Number(process.argv[2] ?? 2000);
const days = Number(process.argv[3] ?? 8);
const strategies = (process.argv[4] ?? 'vpa,tailor,tailor-low-churn').split(',');
const child = process.argv[5] === '--child';
const USAGE =
  'usage: npm run bench:model-bytes -- [containers: an even whole number >= 20, default 2000] [days > 0, default 8] [strategies, default vpa,tailor,tailor-low-churn]';
if (!(Number.isInteger(containers) && containers >= 20 && containers % 2 === 0) || !(days > 0)) {
  console.error(`${USAGE}; got "${process.argv.slice(2, 4).join(' ')}"`);
  process.exit(2);
}
const MINUTE = 60_000;
const t0 = Date.UTC(2026, 0, 1);

interface Figure {
  strategy: string;
  bytesPerContainer: number;
  heapPerContainer: number;
  arrayPerContainer: number;
}

async function used(gc: () => void): Promise<{ heap: number; arrays: number }> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 25)); // array buffers are freed asynchronously
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, arrays: m.arrayBuffers };
}

/** One strategy in this process: the slope described above. */
async function measure(name: string): Promise<Figure> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  const strategy = createStrategyRegistry().get(name);
  const noise = seededNoise();
  const models: UsageModel[] = [];
  let half = { heap: 0, arrays: 0 };
  for (let c = 0; c < containers; c++) {
    if (c === containers / 2) half = await used(gc);
    const model = strategy.newModel();
    models.push(model);
    const base = 0.05 + (c % 20) * 0.1;
    const memBase = (100 + (c % 30) * 50) * 1024 * 1024;
    for (let i = 0; i < days * 1440; i++) {
      const at = t0 + i * MINUTE;
      const daily = 1 + 0.5 * Math.sin((2 * Math.PI * i) / 1440);
      model.addCpuSample(base * daily * (0.8 + 0.4 * noise()), at);
      model.addMemorySample(memBase * (0.9 + 0.2 * noise()), at);
      // The controller asks every cycle (a minute): the caches an estimate fills count too.
      if (i % 60 === 59) model.estimate(at);
    }
  }
  const all = await used(gc);
  const n = containers / 2;
  const heap = (all.heap - half.heap) / n;
  const arrays = (all.arrays - half.arrays) / n;
  if (models.length !== containers) throw new Error('models lost'); // keeps them reachable until here
  return { strategy: name, bytesPerContainer: Math.round(heap + arrays), heapPerContainer: Math.round(heap), arrayPerContainer: Math.round(arrays) };
}

if (child) {
  process.stdout.write(JSON.stringify(await measure(strategies[0]!)));
} else {
  const figures: Figure[] = strategies.map(
    (name) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), String(containers), String(days), name, '--child'],
          { encoding: 'utf8' },
        ),
      ) as Figure,
  );
  const vpa = figures.find((f) => f.strategy === 'vpa');
  console.log(`# Model bytes per container: ${containers} containers x ${days} days of 1-minute samples`);
  const width = Math.max(8, ...figures.map((f) => f.strategy.length));
  console.log(`${'strategy'.padEnd(width)} bytes/container   heap   typed arrays   x vpa`);
  for (const f of figures) {
    const ratio = vpa ? (f.bytesPerContainer / vpa.bytesPerContainer).toFixed(2) : '-';
    console.log(
      `${f.strategy.padEnd(width)} ${String(f.bytesPerContainer).padStart(15)} ${String(f.heapPerContainer).padStart(6)} ${String(f.arrayPerContainer).padStart(14)} ${ratio.padStart(7)}`,
    );
  }
  // Issue 15 item 5: the default of `tailor run` (tailor-low-churn, decision 0276) and tailor.
  for (const f of figures.filter((x) => x.strategy.startsWith('tailor'))) {
    console.log(`${f.strategy} <= 4 KiB (4,096 bytes) per container: ${f.bytesPerContainer <= 4096 ? 'met' : 'NOT MET'} (${f.bytesPerContainer})`);
  }
}
