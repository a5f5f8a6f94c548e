/**
 * Named workload shapes for the evaluation suite. Each archetype draws its own parameters from the
 * random source (so every container differs) and fills one container's CPU (cores) and memory
 * (bytes) series. Shapes follow what clusters show: steady services, daily and weekly cycles,
 * spikes, cron batches, leaks with restarts, JVM heap sawtooth, start-up spikes and step changes.
 */
import type { Random } from './random.ts';

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
const HOUR = 3600;
const DAY = 86_400;

/** Where the series goes and its time grid (Unix seconds). */
export interface SeriesSpec {
  samples: number;
  intervalSeconds: number;
  startSeconds: number;
}

/** The filled arrays of one container. */
export interface GeneratedSeries {
  cpu: Float32Array;
  memory: Float64Array;
}

/** An archetype: parameters from `rng`, values for every sample of `spec`. */
export type Archetype = (rng: Random, spec: SeriesSpec) => GeneratedSeries;

/** Mean-reverting noise (AR(1)): smooth like real memory, stationary with deviation `sigma`. */
class SmoothNoise {
  private value = 0;
  constructor(
    private readonly rng: Random,
    private readonly sigma: number,
    private readonly rho = 0.98,
  ) {}
  next(): number {
    this.value = this.rho * this.value + this.sigma * Math.sqrt(1 - this.rho * this.rho) * this.rng.normal();
    return this.value;
  }
}

/** Common draws: a CPU level (cores), a memory level (bytes), CPU noise. */
function baseLevels(rng: Random): { cpu: number; memory: number; cpuNoise: number } {
  return { cpu: rng.logBetween(0.05, 2), memory: rng.logBetween(256 * MIB, 4 * GIB), cpuNoise: rng.between(0.05, 0.25) };
}

function alloc(spec: SeriesSpec): GeneratedSeries {
  return { cpu: new Float32Array(spec.samples), memory: new Float64Array(spec.samples) };
}

/** A daily wave in [-1, 1], peaking at `peakHour` (UTC). */
function dailyWave(t: number, peakHour: number): number {
  return Math.cos((2 * Math.PI * (t - peakHour * HOUR)) / DAY);
}

/** True on Saturday and Sunday (UTC). */
function isWeekend(t: number): boolean {
  const weekday = (Math.floor(t / DAY) + 4) % 7; // 1970-01-01 was a Thursday (4)
  return weekday === 0 || weekday === 6;
}

const steady: Archetype = (rng, spec) => {
  const out = alloc(spec);
  const base = baseLevels(rng);
  const mem = new SmoothNoise(rng, rng.between(0.01, 0.04));
  for (let i = 0; i < spec.samples; i++) {
    out.cpu[i] = Math.max(0, base.cpu * (1 + base.cpuNoise * rng.normal()));
    out.memory[i] = base.memory * (1 + mem.next());
  }
  return out;
};

const diurnal: Archetype = (rng, spec) => {
  const out = alloc(spec);
  const base = baseLevels(rng);
  const amplitude = rng.between(0.4, 0.9);
  const memAmplitude = rng.between(0.05, 0.3);
  const peak = rng.between(0, 24);
  const mem = new SmoothNoise(rng, 0.02);
  for (let i = 0; i < spec.samples; i++) {
    const t = spec.startSeconds + i * spec.intervalSeconds;
    const wave = dailyWave(t, peak);
    out.cpu[i] = Math.max(0, base.cpu * (1 + amplitude * wave) * (1 + base.cpuNoise * rng.normal()));
    out.memory[i] = base.memory * (1 + memAmplitude * wave) * (1 + mem.next());
  }
  return out;
};

const weekly: Archetype = (rng, spec) => {
  const out = alloc(spec);
  const base = baseLevels(rng);
  const amplitude = rng.between(0.3, 0.8);
  const weekend = rng.between(0.3, 0.6);
  const memWeekend = rng.between(0.7, 0.95);
  const peak = rng.between(8, 18);
  const mem = new SmoothNoise(rng, 0.02);
  for (let i = 0; i < spec.samples; i++) {
    const t = spec.startSeconds + i * spec.intervalSeconds;
    const off = isWeekend(t);
    const wave = dailyWave(t, peak);
    out.cpu[i] = Math.max(0, base.cpu * (off ? weekend : 1) * (1 + amplitude * wave) * (1 + base.cpuNoise * rng.normal()));
    out.memory[i] = base.memory * (off ? memWeekend : 1) * (1 + 0.1 * wave) * (1 + mem.next());
  }
  return out;
};

const spiky: Archetype = (rng, spec) => {
  const out = alloc(spec);
  const base = baseLevels(rng);
  const perSample = spec.intervalSeconds / HOUR;
  const cpuSpikeRate = rng.between(0.5, 4) * perSample;
  const memSpikeRate = rng.between(0.05, 0.5) * perSample;
  const mem = new SmoothNoise(rng, 0.02);
  let cpuSpikeLeft = 0;
  let cpuSpikeHeight = 1;
  let memSpikeLeft = 0;
  let memSpikeHeight = 1;
  for (let i = 0; i < spec.samples; i++) {
    if (cpuSpikeLeft === 0 && rng.chance(cpuSpikeRate)) {
      cpuSpikeLeft = rng.int(1, 5);
      cpuSpikeHeight = rng.between(3, 10);
    }
    if (memSpikeLeft === 0 && rng.chance(memSpikeRate)) {
      memSpikeLeft = rng.int(1, 10);
      memSpikeHeight = rng.between(1.1, 1.5);
    }
    const cpuFactor = cpuSpikeLeft > 0 ? cpuSpikeHeight : 1;
    const memFactor = memSpikeLeft > 0 ? memSpikeHeight : 1;
    if (cpuSpikeLeft > 0) cpuSpikeLeft--;
    if (memSpikeLeft > 0) memSpikeLeft--;
    out.cpu[i] = Math.max(0, base.cpu * 0.5 * cpuFactor * (1 + base.cpuNoise * rng.normal()));
    out.memory[i] = base.memory * memFactor * (1 + mem.next());
  }
  return out;
};

const batch: Archetype = (rng, spec) => {
  const out = alloc(spec);
  const period = rng.pick([HOUR, 4 * HOUR, 6 * HOUR, DAY]);
  const duration = Math.min(period * rng.between(0.05, 0.3), 3 * HOUR);
  const offset = rng.between(0, period);
  const idleCpu = rng.between(0.01, 0.05);
  const jobCpu = rng.between(0.5, 4);
  const idleMemory = rng.logBetween(128 * MIB, GIB);
  const jobMemory = idleMemory * rng.between(1.5, 3);
  const mem = new SmoothNoise(rng, 0.02);
  for (let i = 0; i < spec.samples; i++) {
    const t = spec.startSeconds + i * spec.intervalSeconds;
    const phase = (((t - offset) % period) + period) % period;
    const running = phase < duration;
    // The job's memory grows over its run (it loads its input), then is released.
    const progress = running ? phase / duration : 0;
    out.cpu[i] = Math.max(0, (running ? jobCpu : idleCpu) * (1 + 0.1 * rng.normal()));
    out.memory[i] = (running ? idleMemory + (jobMemory - idleMemory) * Math.min(1, 0.3 + progress) : idleMemory) * (1 + mem.next());
  }
  return out;
};

const memoryLeak: Archetype = (rng, spec) => {
  const out = alloc(spec);
  const base = baseLevels(rng);
  const cycle = rng.between(1, 4) * DAY;
  const growth = rng.between(0.5, 2); // memory added over one cycle, as a share of the base
  const mem = new SmoothNoise(rng, 0.01);
  let restartAt = spec.startSeconds;
  let nextRestart = restartAt + cycle * rng.between(0.8, 1.2);
  for (let i = 0; i < spec.samples; i++) {
    const t = spec.startSeconds + i * spec.intervalSeconds;
    if (t >= nextRestart) {
      restartAt = t;
      nextRestart = t + cycle * rng.between(0.8, 1.2);
    }
    const age = (t - restartAt) / cycle;
    out.cpu[i] = Math.max(0, base.cpu * (1 + base.cpuNoise * rng.normal()));
    out.memory[i] = base.memory * (1 + growth * age) * (1 + mem.next());
  }
  return out;
};

const jvmSawtooth: Archetype = (rng, spec) => {
  const out = alloc(spec);
  const base = baseLevels(rng);
  const heapMax = base.memory;
  const heapFloor = heapMax * rng.between(0.4, 0.7);
  const gcPeriod = rng.between(5, 60) * 60;
  const offset = rng.between(0, gcPeriod);
  for (let i = 0; i < spec.samples; i++) {
    const t = spec.startSeconds + i * spec.intervalSeconds;
    const phase = ((((t - offset) % gcPeriod) + gcPeriod) % gcPeriod) / gcPeriod;
    const gcBurst = phase * gcPeriod < spec.intervalSeconds ? 2 : 1;
    out.cpu[i] = Math.max(0, base.cpu * gcBurst * (1 + base.cpuNoise * rng.normal()));
    out.memory[i] = (heapFloor + (heapMax - heapFloor) * phase) * (1 + 0.005 * rng.normal());
  }
  return out;
};

const startupSpike: Archetype = (rng, spec) => {
  const out = alloc(spec);
  const base = baseLevels(rng);
  const deployEvery = rng.between(1, 3) * DAY;
  const warmup = rng.between(5, 20) * 60;
  const cpuBoost = rng.between(4, 10);
  const memBoost = rng.between(1.1, 1.4);
  const mem = new SmoothNoise(rng, 0.02);
  let deployedAt = spec.startSeconds;
  let nextDeploy = deployedAt + deployEvery * rng.between(0.7, 1.3);
  for (let i = 0; i < spec.samples; i++) {
    const t = spec.startSeconds + i * spec.intervalSeconds;
    if (t >= nextDeploy) {
      deployedAt = t;
      nextDeploy = t + deployEvery * rng.between(0.7, 1.3);
    }
    const sinceStart = t - deployedAt;
    const warming = sinceStart < warmup ? 1 - sinceStart / warmup : 0;
    out.cpu[i] = Math.max(0, base.cpu * (1 + (cpuBoost - 1) * warming) * (1 + base.cpuNoise * rng.normal()));
    out.memory[i] = base.memory * (1 + (memBoost - 1) * warming) * (1 + mem.next());
  }
  return out;
};

const stepChange: Archetype = (rng, spec) => {
  const out = alloc(spec);
  const base = baseLevels(rng);
  const span = spec.samples * spec.intervalSeconds;
  const stepAt = spec.startSeconds + span * rng.between(0.3, 0.7);
  const up = rng.chance(0.5);
  const cpuFactor = up ? rng.between(1.8, 3) : rng.between(0.3, 0.6);
  const memFactor = up ? rng.between(1.3, 2) : rng.between(0.5, 0.8);
  const mem = new SmoothNoise(rng, 0.02);
  for (let i = 0; i < spec.samples; i++) {
    const t = spec.startSeconds + i * spec.intervalSeconds;
    const after = t >= stepAt;
    out.cpu[i] = Math.max(0, base.cpu * (after ? cpuFactor : 1) * (1 + base.cpuNoise * rng.normal()));
    out.memory[i] = base.memory * (after ? memFactor : 1) * (1 + mem.next());
  }
  return out;
};

/** The archetypes by name, in suite order. */
export const ARCHETYPES = {
  steady,
  diurnal,
  weekly,
  spiky,
  batch,
  'memory-leak': memoryLeak,
  'jvm-sawtooth': jvmSawtooth,
  'startup-spike': startupSpike,
  'step-change': stepChange,
} as const satisfies Record<string, Archetype>;

export type ArchetypeName = keyof typeof ARCHETYPES;
export const ARCHETYPE_NAMES = Object.keys(ARCHETYPES) as ArchetypeName[];
