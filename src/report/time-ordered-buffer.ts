/**
 * Merges the samples of one chunk in time order before they reach time-ordered models. The feed
 * delivers each pod's series whole (pod 1 from 10:00 to 12:00, then pod 2 from 10:00 to 12:00); a
 * model that keeps a forward clock (tailor's hour transitions, surge windows, after-the-fact
 * checks) needs 10:00 (pod 1), 10:00 (pod 2), 10:01 (pod 1), ... instead. At the same time CPU
 * comes before memory, memory before an OOM kill, and among equals the series that came first.
 * Only one chunk is held at a time.
 *
 * The buffer keeps the decoded series themselves (two numbers a sample) and merges them with a
 * heap at the flush, instead of one object per sample sorted as a whole: at 10,000 containers x 8
 * days that object per sample (~56 bytes against 16) was most of `tailor`'s bootstrap peak.
 */
import type { ContainerSeries } from '../metrics/metrics-source.ts';
import type { OomBump, UsageModel } from '../model/types.ts';

const CPU = 0;
const MEMORY = 1;
const OOM = 2;
type Kind = typeof CPU | typeof MEMORY | typeof OOM;

/** One series (or one OOM kill) of a model, its times ascending. */
interface Run {
  times: readonly number[];
  values: readonly number[];
  kind: Kind;
  instance: string;
  /** An OOM kill's VPA-own bump. */
  bump?: OomBump;
}

export class TimeOrderedBuffer {
  private readonly pending = new Map<UsageModel, Run[]>();

  cpu(model: UsageModel, series: ContainerSeries): void {
    this.push(model, series, CPU);
  }

  memory(model: UsageModel, series: ContainerSeries): void {
    this.push(model, series, MEMORY);
  }

  oom(model: UsageModel, usedBytes: number, at: number, instance: string, bump?: OomBump): void {
    this.list(model).push({ times: [at], values: [usedBytes], kind: OOM, instance, ...(bump ? { bump } : {}) });
  }

  /** Feeds every model its buffered samples, ordered by time, then kind, then the order they came in. */
  flush(): void {
    for (const [model, runs] of this.pending) mergeRuns(runs, (run, i) => feed(model, run, i));
    this.pending.clear();
  }

  private push(model: UsageModel, series: ContainerSeries, kind: Kind): void {
    if (series.times.length === 0) return;
    const { times, values } = ascending(series);
    this.list(model).push({ times, values, kind, instance: series.key.pod });
  }

  private list(model: UsageModel): Run[] {
    let list = this.pending.get(model);
    if (!list) this.pending.set(model, (list = []));
    return list;
  }
}

function feed(model: UsageModel, run: Run, i: number): void {
  const at = run.times[i]!;
  const value = run.values[i]!;
  if (run.kind === CPU) model.addCpuSample(value, at, run.instance);
  else if (run.kind === MEMORY) model.addMemorySample(value, at, run.instance);
  else model.recordOom(value, at, run.instance, run.bump);
}

/** The series' samples in ascending time (a stable sort of a copy, only when they are not already). */
function ascending(series: ContainerSeries): { times: readonly number[]; values: readonly number[] } {
  const { times, values } = series;
  let sorted = true;
  for (let i = 1; i < times.length && sorted; i++) sorted = times[i - 1]! <= times[i]!;
  if (sorted) return series;
  const order = times.map((_, i) => i).sort((a, b) => times[a]! - times[b]!);
  return { times: order.map((i) => times[i]!), values: order.map((i) => values[i]!) };
}

/**
 * Visits the samples of sorted runs in (time, kind, run order) order: a k-way merge with a binary
 * min-heap of run indices, O(n log k). Worked example: runs cpu(web-1) [60, 120], cpu(web-2)
 * [60, 120], mem(web-1) [60] visit 60 web-1 cpu, 60 web-2 cpu, 60 web-1 mem, 120 web-1 cpu, ...
 */
function mergeRuns(runs: readonly Run[], visit: (run: Run, index: number) => void): void {
  if (runs.length === 1) {
    const run = runs[0]!;
    for (let i = 0; i < run.times.length; i++) visit(run, i);
    return;
  }
  const position = new Array<number>(runs.length).fill(0);
  const before = (a: number, b: number): boolean => {
    const ta = runs[a]!.times[position[a]!]!;
    const tb = runs[b]!.times[position[b]!]!;
    if (ta !== tb) return ta < tb;
    const ka = runs[a]!.kind;
    const kb = runs[b]!.kind;
    return ka !== kb ? ka < kb : a < b;
  };
  const heap: number[] = [];
  for (let r = 0; r < runs.length; r++) if (runs[r]!.times.length > 0) siftUp(heap, heap.push(r) - 1, before);
  while (heap.length > 0) {
    const r = heap[0]!;
    visit(runs[r]!, position[r]!);
    position[r] = position[r]! + 1;
    if (position[r]! >= runs[r]!.times.length) {
      const last = heap.pop()!;
      if (heap.length === 0) break;
      heap[0] = last;
    }
    siftDown(heap, 0, before);
  }
}

function siftUp(heap: number[], i: number, before: (a: number, b: number) => boolean): void {
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i]!, heap[parent]!)) return;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function siftDown(heap: number[], i: number, before: (a: number, b: number) => boolean): void {
  for (;;) {
    const left = 2 * i + 1;
    if (left >= heap.length) return;
    const right = left + 1;
    const first = right < heap.length && before(heap[right]!, heap[left]!) ? right : left;
    if (!before(heap[first]!, heap[i]!)) return;
    [heap[i], heap[first]] = [heap[first]!, heap[i]!];
    i = first;
  }
}
