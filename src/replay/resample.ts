/**
 * Puts one container's rows, as a file or a Prometheus export delivers them, on a regular step:
 * duplicates, sub-step jitter and samples faster than the step are merged (CPU: mean; memory: max,
 * because a peak is what an OOM kill sees), rows out of time order are put back in order, and gaps
 * stay gaps (the replay does not invent samples). Nothing is refused here: the reader has already
 * refused what cannot be used.
 *
 * The step is the most common gap (whole seconds) of at least {@link MIN_STEP_SECONDS} between
 * consecutive times (smaller gaps are jitter or duplicates by definition), or that minimum when
 * every gap is smaller. Rows less than half a step after the first row of a sample join that sample,
 * which keeps the first row's time; the next row starts the next sample. Following the rows'
 * own times (rather than a fixed grid) keeps a scraper whose clock drifts a second per scrape, as
 * the Bitbrains trace's does, from turning drift into merges and holes.
 *
 * Worked example (step 300 s): times 0, 300, 301, 600, 1500 give the samples 0, 300 (two rows
 * merged), 600 and 1500: 1 merged row and 1 gap of 1.5 steps or more (900 s, the longest).
 */
import type { ContainerSeries, ResampleCounts } from './trace.ts';

/** Shortest step, seconds: faster samples are merged down to it. */
export const MIN_STEP_SECONDS = 10;

/** Step of a series with fewer than two distinct times, seconds. */
export const DEFAULT_STEP_SECONDS = 60;

/** One container's rows in file order (CPU present on every row; memory NaN where none). */
export class RawSeries {
  readonly name: string;
  private times: Float64Array<ArrayBuffer> = new Float64Array(256);
  private cpu: Float64Array<ArrayBuffer> = new Float64Array(256);
  private memory: Float64Array<ArrayBuffer> = new Float64Array(256);
  private count = 0;
  /** Rows that came before an earlier row of this container. */
  reordered = 0;

  constructor(name: string) {
    this.name = name;
  }

  get length(): number {
    return this.count;
  }

  /** Appends one row. */
  push(time: number, cpuCores: number, memoryBytes: number): void {
    if (this.count === this.times.length) this.grow();
    if (this.count > 0 && time < (this.times[this.count - 1] ?? time)) this.reordered++;
    this.times[this.count] = time;
    this.cpu[this.count] = cpuCores;
    this.memory[this.count] = memoryBytes;
    this.count++;
  }

  /** The rows resampled to the step, and what that changed (`rows`, `reordered`, `merged`, `gaps`). */
  resample(): { series: ContainerSeries; counts: ResampleCounts } {
    const n = this.count;
    const order = this.timeOrder();
    const at = (k: number): number => this.times[order[k] ?? 0] ?? 0;
    const step = chooseStep(n, at);
    const times = new Float64Array(n);
    const cpu = new Float64Array(n);
    const memory = new Float64Array(n);
    const counts: ResampleCounts = { rows: n, merged: 0, reordered: this.reordered, skipped: 0, gaps: 0, longestGapSeconds: 0 };
    let out = -1;
    let groupStart = -Infinity;
    let cpuSum = 0;
    let inGroup = 0;
    let anyMemory = false;
    const close = (): void => {
      if (out >= 0) cpu[out] = cpuSum / inGroup;
    };
    for (let k = 0; k < n; k++) {
      const row = order[k] ?? 0;
      const t = this.times[row] ?? 0;
      const bytes = this.memory[row] ?? NaN;
      if (!Number.isNaN(bytes)) anyMemory = true;
      if (t - groupStart < step / 2) {
        counts.merged++;
        cpuSum += this.cpu[row] ?? 0;
        inGroup++;
        const held = memory[out] ?? NaN;
        if (!Number.isNaN(bytes) && (Number.isNaN(held) || bytes > held)) memory[out] = bytes;
        continue;
      }
      close();
      if (out >= 0 && t - groupStart >= 1.5 * step) {
        counts.gaps++;
        counts.longestGapSeconds = Math.max(counts.longestGapSeconds, t - groupStart);
      }
      out++;
      groupStart = t;
      times[out] = t;
      memory[out] = bytes;
      cpuSum = this.cpu[row] ?? 0;
      inGroup = 1;
    }
    close();
    const length = out + 1;
    const series: ContainerSeries = {
      name: this.name,
      length,
      times: times.subarray(0, length),
      cpu: cpu.subarray(0, length),
      memory: memory.subarray(0, length),
      hasMemory: anyMemory,
      intervalSeconds: step,
    };
    return { series, counts };
  }

  /** Row indices in time order (stable: rows with equal times keep their file order). */
  private timeOrder(): Uint32Array {
    const order = new Uint32Array(this.count);
    for (let i = 0; i < order.length; i++) order[i] = i;
    if (this.reordered === 0) return order;
    const times = this.times;
    return order.sort((a, b) => (times[a] ?? 0) - (times[b] ?? 0) || a - b);
  }

  private grow(): void {
    const capacity = this.times.length * 2;
    const grown = (from: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> => {
      const to = new Float64Array(capacity);
      to.set(from);
      return to;
    };
    this.times = grown(this.times);
    this.cpu = grown(this.cpu);
    this.memory = grown(this.memory);
  }
}

/**
 * The most common gap of at least MIN_STEP_SECONDS between consecutive times `at(0..n-1)`, in whole
 * seconds (ties: the shorter). The mode, not the median: a series that mixes a regular scrape with
 * stray extra samples (one Bitbrains VM has a second, offset sample in most intervals) keeps the
 * scrape's step.
 */
function chooseStep(n: number, at: (k: number) => number): number {
  const counts = new Map<number, number>();
  let sawDistinct = false;
  for (let k = 1; k < n; k++) {
    const gap = at(k) - at(k - 1);
    if (gap > 0) sawDistinct = true;
    if (gap >= MIN_STEP_SECONDS) {
      const key = Math.round(gap);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  let best = sawDistinct ? MIN_STEP_SECONDS : DEFAULT_STEP_SECONDS;
  let bestCount = 0;
  for (const [gap, count] of counts) {
    if (count > bestCount || (count === bestCount && gap < best)) {
      best = gap;
      bestCount = count;
    }
  }
  return best;
}

/** Adds `b`'s counts to `a`. */
export function addCounts(a: ResampleCounts, b: ResampleCounts): void {
  a.rows += b.rows;
  a.merged += b.merged;
  a.reordered += b.reordered;
  a.skipped += b.skipped;
  a.gaps += b.gaps;
  a.longestGapSeconds = Math.max(a.longestGapSeconds, b.longestGapSeconds);
}

/** Counts with nothing in them. */
export function emptyCounts(): ResampleCounts {
  return { rows: 0, merged: 0, reordered: 0, skipped: 0, gaps: 0, longestGapSeconds: 0 };
}

/**
 * One line that says what resampling changed, or undefined when the file was already regular.
 * Example: "trace.csv: 3,694 of 326,000 rows merged into the sample of their step (duplicates or
 * jitter), 73 gaps (longest 5.0 h) left as they are".
 */
export function describeResampling(source: string, c: ResampleCounts): string | undefined {
  const parts: string[] = [];
  const num = (x: number): string => x.toLocaleString('en');
  if (c.merged > 0)
    parts.push(
      `${num(c.merged)} of ${num(c.rows)} rows merged into the sample of their step (duplicates, jitter or faster sampling; CPU averaged, memory peak kept)`,
    );
  if (c.reordered > 0) parts.push(`${num(c.reordered)} rows out of time order put back in order`);
  if (c.skipped > 0) parts.push(`${num(c.skipped)} rows without a CPU value skipped`);
  if (c.gaps > 0) parts.push(`${num(c.gaps)} gaps of 1.5 steps or more (longest ${formatDuration(c.longestGapSeconds)}) left as they are`);
  return parts.length === 0 ? undefined : `${source}: ${parts.join('; ')}`;
}

function formatDuration(seconds: number): string {
  if (seconds < 3600) return `${(seconds / 60).toFixed(0)} min`;
  if (seconds < 172_800) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}
