/**
 * Where the bytes of a `tailor` model go: builds `containers` copies of each of its parts alone,
 * feeds them the `realistic` stream of bench/recommender-model.ts (one CPU and one memory sample a
 * minute, a daily cycle with noise) for `days`, and prints the bytes per container of each part
 * (JS heap + typed-array storage).
 *   node --import tsx --expose-gc bench/tailor-model-breakdown.ts [containers=200] [days=8]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { exponentialHistogramOptions } from '../src/model/histogram-options.ts';
import { HourOfDayHistograms } from '../src/model/tailor/hour-of-day-histograms.ts';
import { PooledDecayingHistograms } from '../src/model/tailor/pooled-decaying-histograms.ts';
import { HourlyPeaks } from '../src/model/tailor/hourly-peaks.ts';
import { RecentWindow } from '../src/model/tailor/recent-window.ts';
import { CpuTarget } from '../src/model/tailor/cpu-target.ts';
import { MemoryTarget } from '../src/model/tailor/memory-target.ts';
import { TailorModel } from '../src/model/tailor/tailor-strategy.ts';
import { tailorSettings } from '../src/model/tailor/experiments.ts';
import { seededNoise } from './bench-args.ts';

const containers = Number(process.argv[2] ?? 200);
const days = Number(process.argv[3] ?? 8);
const MINUTE = 60_000;
const t0 = Date.UTC(2026, 0, 1);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const o = tailorSettings();
const CPU_BUCKETS = exponentialHistogramOptions(1000, 0.001, 1.02, 1e-6);

async function used(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc!();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Bytes per container of `make()`'s part fed the realistic stream (cpu, memory) by `feed`. */
async function measure(name: string, make: () => unknown, feed: (part: never, cores: number, bytes: number, at: number) => void): Promise<void> {
  const noise = seededNoise();
  const before = await used();
  const parts: unknown[] = [];
  for (let c = 0; c < containers; c++) parts.push(make());
  for (let c = 0; c < containers; c++) {
    const part = parts[c] as never;
    const base = 0.05 + (c % 20) * 0.1;
    const memBase = (100 + (c % 30) * 50) * 1024 * 1024;
    for (let i = 0; i < days * 1440; i++) {
      const daily = 1 + 0.5 * Math.sin((2 * Math.PI * i) / 1440);
      feed(part, base * daily * (0.8 + 0.4 * noise()), memBase * (0.9 + 0.2 * noise()), t0 + i * MINUTE);
    }
  }
  const after = await used();
  // parts.length keeps the parts reachable until after the measurement.
  console.log(`${name.padEnd(36)} ${String(Math.round((after - before) / parts.length)).padStart(7)} B`);
}

/** The parts, each measured in a process of its own (garbage of one part would blur the next). */
const PARTS: Record<string, () => Promise<void>> = {
  'hour-of-day CPU histograms (24)': () =>
    measure(
      'hour-of-day CPU histograms (24)',
      () =>
        new HourOfDayHistograms(
          new PooledDecayingHistograms(Array<number>(24).fill(o.seasonalHalfLifeMs), CPU_BUCKETS),
          o.cpuQuantile,
          o.updater.maxStepUpFactor,
        ),
      (p: HourOfDayHistograms, cores, _b, at) => p.add(cores, at),
    ),
  'all-hours CPU histogram': () =>
    measure(
      'all-hours CPU histogram',
      () => new PooledDecayingHistograms([o.flatHalfLifeMs], CPU_BUCKETS),
      (p: PooledDecayingHistograms, cores, _b, at) => p.add(0, cores, at),
    ),
  'recent CPU window (surge check)': () =>
    measure(
      'recent CPU window (surge check)',
      () => new RecentWindow(o.surgeWindowMs),
      (p: RecentWindow, cores, _b, at) => p.add(cores, at),
    ),
  'hourly memory peaks (7 days)': () =>
    measure(
      'hourly memory peaks (7 days)',
      () => new HourlyPeaks(o.memoryHistoryMs),
      (p: HourlyPeaks, _c, bytes, at) => p.add(bytes, at),
    ),
  'CpuTarget (all CPU parts)': () =>
    measure(
      'CpuTarget (all CPU parts)',
      () => new CpuTarget(o),
      (p: CpuTarget, cores, _b, at) => p.add(cores, at),
    ),
  'MemoryTarget (all memory parts)': () =>
    measure(
      'MemoryTarget (all memory parts)',
      () => new MemoryTarget(o),
      (p: MemoryTarget, _c, bytes, at) => p.add(bytes, at),
    ),
  'TailorModel (whole)': () =>
    measure(
      'TailorModel (whole)',
      () => new TailorModel(o),
      (p: TailorModel, cores, bytes, at) => {
        p.addCpuSample(cores, at);
        p.addMemorySample(bytes, at);
      },
    ),
};
const only = process.argv[4];
if (only !== undefined) await PARTS[only]?.();
else
  for (const name of Object.keys(PARTS))
    process.stdout.write(execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), String(containers), String(days), name]));
