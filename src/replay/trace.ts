/**
 * A usage trace in memory: one compact series per container (typed arrays, no object per sample).
 * Times are Unix seconds as in the CSV; CPU in cores; memory in bytes, NaN where the trace has none.
 */

/** The usage samples of one container, in time order. */
export interface ContainerSeries {
  readonly name: string;
  /** Number of samples; the arrays below may be longer (spare capacity) and are valid up to here. */
  readonly length: number;
  /** Sample times, Unix seconds, strictly increasing. */
  readonly times: Float64Array;
  /** CPU used, cores (average over the sample's interval). */
  readonly cpu: Float32Array;
  /** Memory working set, bytes; NaN where the trace has no memory reading. */
  readonly memory: Float64Array;
  /** True when at least one sample has a memory reading. */
  readonly hasMemory: boolean;
  /** The sampling interval, seconds: the smallest gap between two consecutive samples. */
  readonly intervalSeconds: number;
}

/** A whole trace: many containers, each with its own series. */
export interface Trace {
  readonly containers: readonly ContainerSeries[];
}

/** Seconds per day, used for container-days. */
export const SECONDS_PER_DAY = 86_400;

/**
 * Days one series covers: (last - first + interval) / 1 day. Example: 1,440 samples at 60 s from
 * t=0 to t=86,340 cover (86,340 + 60) / 86,400 = 1 day.
 */
export function seriesDays(series: ContainerSeries): number {
  if (series.length === 0) return 0;
  const first = series.times[0] ?? 0;
  const last = series.times[series.length - 1] ?? 0;
  return (last - first + series.intervalSeconds) / SECONDS_PER_DAY;
}

/**
 * Collects one container's samples into growable typed arrays (capacity doubles, so appending is
 * amortised O(1) and allocates only O(log n) times).
 */
export class SeriesBuilder {
  readonly name: string;
  private times = new Float64Array(256);
  private cpu = new Float32Array(256);
  private memory = new Float64Array(256);
  private count = 0;
  private anyMemory = false;
  private minGap = Infinity;

  constructor(name: string) {
    this.name = name;
  }

  get length(): number {
    return this.count;
  }

  /** The last time appended (Unix seconds), or -Infinity when empty. */
  get lastTime(): number {
    return this.count === 0 ? -Infinity : (this.times[this.count - 1] ?? -Infinity);
  }

  /** Appends one sample; `memoryBytes` NaN means no reading. The caller checks time order. */
  push(time: number, cpuCores: number, memoryBytes: number): void {
    if (this.count === this.times.length) this.grow();
    if (this.count > 0) {
      const gap = time - (this.times[this.count - 1] ?? time);
      if (gap < this.minGap) this.minGap = gap;
    }
    this.times[this.count] = time;
    this.cpu[this.count] = cpuCores;
    this.memory[this.count] = memoryBytes;
    if (!Number.isNaN(memoryBytes)) this.anyMemory = true;
    this.count++;
  }

  /** The finished series (shares the builder's arrays; do not push afterwards). */
  build(defaultIntervalSeconds = 60): ContainerSeries {
    return {
      name: this.name,
      length: this.count,
      times: this.times.subarray(0, this.count),
      cpu: this.cpu.subarray(0, this.count),
      memory: this.memory.subarray(0, this.count),
      hasMemory: this.anyMemory,
      intervalSeconds: Number.isFinite(this.minGap) ? this.minGap : defaultIntervalSeconds,
    };
  }

  private grow(): void {
    const capacity = this.times.length * 2;
    const times = new Float64Array(capacity);
    times.set(this.times);
    const cpu = new Float32Array(capacity);
    cpu.set(this.cpu);
    const memory = new Float64Array(capacity);
    memory.set(this.memory);
    this.times = times;
    this.cpu = cpu;
    this.memory = memory;
  }
}
