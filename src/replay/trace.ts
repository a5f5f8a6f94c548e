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
  /**
   * CPU used, cores (average over the sample's interval). Traces read from a file keep the file's
   * values exactly (Float64Array); the workload generator draws float32 values.
   */
  readonly cpu: Float64Array | Float32Array;
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
  /** What the reader changed to put the file's samples on a regular step (absent for generated traces). */
  readonly resampling?: ResampleCounts;
}

/** What resampling did to a trace's rows (see resample.ts); all counts are of rows or samples. */
export interface ResampleCounts {
  /** Data rows read. */
  rows: number;
  /** Rows merged into another sample of the same step (duplicates, sub-step jitter, faster sampling). */
  merged: number;
  /** Rows that came before an earlier row of the same container and were put back in time order. */
  reordered: number;
  /** Rows skipped because they have no CPU value (`NaN` or empty). */
  skipped: number;
  /** Places where at least one step has no sample (left as they are: the replay does not invent data). */
  gaps: number;
  /** The longest time between two samples of one container across a gap, seconds (0 without gaps). */
  longestGapSeconds: number;
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
