/**
 * Throughput and memory of a strategy's usage model (default `vpa`; `tailor` for the in-cluster
 * `--recommender-strategy tailor`, decisions 0150-0151).
 *   node --import tsx --expose-gc bench/recommender-model.ts [containers] [days] [realistic|spread] [vpa|tailor]
 * `realistic` feeds one CPU and one memory sample per minute per container (a daily cycle with
 * noise); `spread` spreads each container's samples over every bucket of both histograms (the worst
 * case for memory). Reports samples per second and the bytes held per container (JS heap and
 * typed-array storage separately; each typed array also costs ~200 bytes of engine bookkeeping
 * that neither figure shows).
 */
import { createStrategyRegistry } from '../src/model/builtin-strategies.ts';
import type { UsageModel } from '../src/model/types.ts';

const containers = Number(process.argv[2] ?? 200);
const days = Number(process.argv[3] ?? 10);
const mode = process.argv[4] ?? 'realistic';
const strategyName = process.argv[5] ?? 'vpa';
const MINUTE = 60_000;
const t0 = Date.UTC(2026, 0, 1);
const gc = (globalThis as { gc?: () => void }).gc;

async function used(): Promise<{ heap: number; arrays: number }> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 20)); // array buffers are freed asynchronously
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, arrays: m.arrayBuffers };
}

// Deterministic pseudo-random noise (xorshift), so runs are comparable.
let seed = 12345;
function noise(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return ((seed >>> 0) % 1000) / 1000;
}

const strategy = createStrategyRegistry().get(strategyName);
const before = await used();
const models: UsageModel[] = [];
for (let c = 0; c < containers; c++) models.push(strategy.newModel());
const minutes = days * 1440;
const started = process.hrtime.bigint();
for (let c = 0; c < containers; c++) {
  const model = models[c]!;
  const base = 0.05 + (c % 20) * 0.1; // 50m .. 1.95 cores
  const memBase = (100 + (c % 30) * 50) * 1024 * 1024;
  for (let i = 0; i < minutes; i++) {
    const at = t0 + i * MINUTE;
    if (mode === 'spread') {
      const f = (i % 400) / 399; // 1 millicore .. 2000 cores, 1 MB .. 2 TB
      model.addCpuSample(1e-3 * 2e6 ** f, at);
      model.addMemorySample(1e6 * 2e6 ** f, at);
    } else {
      const daily = 1 + 0.5 * Math.sin((2 * Math.PI * i) / 1440);
      model.addCpuSample(base * daily * (0.8 + 0.4 * noise()), at);
      model.addMemorySample(memBase * (0.9 + 0.2 * noise()), at);
    }
  }
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
let estimates = 0;
const estStarted = process.hrtime.bigint();
for (const model of models) if (model.estimate(t0 + minutes * MINUTE)) estimates++;
const estSeconds = Number(process.hrtime.bigint() - estStarted) / 1e9;
const after = await used();
const samples = containers * minutes * 2;
console.log(
  JSON.stringify({
    strategy: strategy.name,
    mode,
    containers,
    days,
    samples,
    seconds: Number(seconds.toFixed(3)),
    samplesPerSecond: Math.round(samples / seconds),
    estimates,
    estimateMicros: Number(((estSeconds / containers) * 1e6).toFixed(2)),
    heapBytesPerContainer: gc ? Math.round((after.heap - before.heap) / containers) : 'run with --expose-gc',
    arrayBytesPerContainer: gc ? Math.round((after.arrays - before.arrays) / containers) : 'run with --expose-gc',
    liveModels: models.length, // keeps the models reachable until after the measurement
  }),
);
