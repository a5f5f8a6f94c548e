/**
 * A {@link UsageSink} that aggregates container usage by workload and container name (the way a
 * VPA does): every pod of Deployment `web` feeds the same `app` model, with the pod name as the
 * instance so the strategy keeps per-pod memory peaks. Holds one model, a sparse CPU histogram and
 * one memory peak per day per workload container (usage-risk.ts), nothing per sample across chunks. For a time-ordered strategy (`tailor`)
 * the samples of one chunk are merged across pods in time order before they reach the model
 * (the feed delivers one pod's series after another), so only one chunk is ever buffered.
 */
import type { ContainerKey, ContainerSeries, OomEvent } from '../metrics/metrics-source.ts';
import type { UsageSink } from '../metrics/usage-feed.ts';
import type { OwnerIndex, WorkloadRef } from '../metrics/owner-resolution.ts';
import type { Strategy, UsageModel } from '../model/types.ts';
import { TimeOrderedBuffer } from './time-ordered-buffer.ts';
import { UsageRisk } from './usage-risk.ts';

/** One workload container being modelled. */
export interface WorkloadContainer {
  namespace: string;
  workload: WorkloadRef;
  container: string;
  model: UsageModel;
  cpuSamples: number;
  memorySamples: number;
  ooms: number;
  /** What the row's risk is scored on (usage-risk.ts). */
  risk: UsageRisk;
  /** Largest memory peak seen (bytes), used to size an OOM as upstream does. */
  memoryPeak: number;
  /** Time of the first and last CPU sample (ms); undefined before the first. */
  firstCpuAt?: number;
  lastCpuAt?: number;
}

export class WorkloadUsage implements UsageSink {
  private readonly byId = new Map<string, WorkloadContainer>();
  private readonly buffer: TimeOrderedBuffer | undefined;

  /**
   * @param memoryRequestOf the current memory request (bytes) of a pod's container, if known:
   *   an OOM is recorded as max(request, observed peak).
   * @param containersInPod how many containers the pods of a namespace/pod have (for per-pod floors).
   */
  constructor(
    private readonly strategy: Strategy,
    private readonly owners: OwnerIndex,
    private readonly memoryRequestOf: (key: ContainerKey) => number | undefined = () => undefined,
    private readonly containersInPod: (namespace: string, pod: string) => number = () => 1,
  ) {
    this.buffer = strategy.timeOrdered ? new TimeOrderedBuffer() : undefined;
  }

  cpu(series: ContainerSeries): void {
    const wc = this.entry(series.key);
    if (this.buffer) this.buffer.cpu(wc.model, series);
    else for (let i = 0; i < series.times.length; i++) wc.model.addCpuSample(series.values[i]!, series.times[i]!, series.key.pod);
    for (const v of series.values) wc.risk.addCpu(v);
    wc.cpuSamples += series.times.length;
    const n = series.times.length;
    if (n > 0) {
      wc.firstCpuAt = Math.min(wc.firstCpuAt ?? Infinity, series.times[0]!);
      wc.lastCpuAt = Math.max(wc.lastCpuAt ?? -Infinity, series.times[n - 1]!);
    }
  }

  memory(series: ContainerSeries): void {
    const wc = this.entry(series.key);
    for (let i = 0; i < series.times.length; i++) {
      const v = series.values[i]!;
      if (!this.buffer) wc.model.addMemorySample(v, series.times[i]!, series.key.pod);
      if (v > wc.memoryPeak) wc.memoryPeak = v;
      wc.risk.addMemory(v, series.times[i]!);
    }
    this.buffer?.memory(wc.model, series);
    wc.memorySamples += series.times.length;
  }

  oom(event: OomEvent): void {
    const wc = this.entry(event.key);
    const used = Math.max(this.memoryRequestOf(event.key) ?? 0, wc.memoryPeak);
    for (let i = 0; i < event.count; i++) {
      if (this.buffer) this.buffer.oom(wc.model, used, event.at, event.key.pod);
      else wc.model.recordOom(used, event.at, event.key.pod);
    }
    wc.ooms += event.count;
  }

  /** The end of a chunk: buffered samples go to the models in time order. */
  endChunk(): void {
    this.buffer?.flush();
  }

  /** The modelled workload containers, sorted by namespace, workload and container. */
  containers(): WorkloadContainer[] {
    this.buffer?.flush();
    return [...this.byId.keys()].sort().map((id) => this.byId.get(id)!);
  }

  private entry(key: ContainerKey): WorkloadContainer {
    const workload = this.owners.workloadOf(key.namespace, key.pod);
    const id = `${key.namespace}\u0000${workload.kind}\u0000${workload.name}\u0000${key.container}`;
    let wc = this.byId.get(id);
    if (!wc) {
      const model = this.strategy.newModel({ containersInPod: this.containersInPod(key.namespace, key.pod) });
      wc = {
        namespace: key.namespace,
        workload,
        container: key.container,
        model,
        risk: new UsageRisk(),
        cpuSamples: 0,
        memorySamples: 0,
        ooms: 0,
        memoryPeak: 0,
      };
      this.byId.set(id, wc);
    }
    return wc;
  }
}
