/**
 * Merges the samples of one chunk in time order before they reach time-ordered models. The feed
 * delivers each pod's series whole (pod 1 from 10:00 to 12:00, then pod 2 from 10:00 to 12:00); a
 * model that keeps a forward clock (tailor's hour transitions, surge windows, after-the-fact
 * checks) needs 10:00 (pod 1), 10:00 (pod 2), 10:01 (pod 1), ... instead. At the same time CPU
 * comes before memory, memory before an OOM kill. Only one chunk is held at a time.
 */
import type { ContainerSeries } from '../metrics/metrics-source.ts';
import type { UsageModel } from '../recommender/types.ts';

const CPU = 0;
const MEMORY = 1;
const OOM = 2;

interface Pending {
  at: number;
  kind: typeof CPU | typeof MEMORY | typeof OOM;
  value: number;
  instance: string;
}

export class TimeOrderedBuffer {
  private readonly pending = new Map<UsageModel, Pending[]>();

  cpu(model: UsageModel, series: ContainerSeries): void {
    this.push(model, series, CPU);
  }

  memory(model: UsageModel, series: ContainerSeries): void {
    this.push(model, series, MEMORY);
  }

  oom(model: UsageModel, usedBytes: number, at: number, instance: string): void {
    this.list(model).push({ at, kind: OOM, value: usedBytes, instance });
  }

  /** Feeds every model its buffered samples, sorted by time then kind (a stable sort keeps pod order). */
  flush(): void {
    for (const [model, items] of this.pending) {
      items.sort((a, b) => a.at - b.at || a.kind - b.kind);
      for (const p of items) {
        if (p.kind === CPU) model.addCpuSample(p.value, p.at, p.instance);
        else if (p.kind === MEMORY) model.addMemorySample(p.value, p.at, p.instance);
        else model.recordOom(p.value, p.at, p.instance);
      }
    }
    this.pending.clear();
  }

  private push(model: UsageModel, series: ContainerSeries, kind: typeof CPU | typeof MEMORY): void {
    const list = this.list(model);
    for (let i = 0; i < series.times.length; i++) list.push({ at: series.times[i]!, kind, value: series.values[i]!, instance: series.key.pod });
  }

  private list(model: UsageModel): Pending[] {
    let list = this.pending.get(model);
    if (!list) this.pending.set(model, (list = []));
    return list;
  }
}
