/**
 * A usage source for the recommender's end-to-end tests that need no Prometheus (leader handover,
 * faults, bad input): every container of every pod that exists in the kube-sim store at query time
 * used `cpuCores` and `memoryBytes` at every step. It remembers each range it was asked for, so a
 * test can tell a full history bootstrap from a resume at a checkpoint. With `usageAt`, usage
 * depends on the time and the pod instead (undefined: no sample then), so re-reading a range gives
 * the same history.
 */
import type { KubeSimApiServer } from 'kube-sim/apiserver';
import {
  cleanQuality,
  type Answer,
  type ContainerResources,
  type ContainerSeries,
  type MetricsSource,
  type OomEvent,
  type OwnerLink,
  type StepRange,
} from '../../src/metrics/metrics-source.ts';

export class SyntheticSource implements MetricsSource {
  /** Every CPU range asked for, in order. */
  readonly cpuRanges: StepRange[] = [];

  constructor(
    private readonly server: KubeSimApiServer,
    /** What every container uses (change it to move the recommendation). */
    readonly usage: { cpuCores: number; memoryBytes: number } = { cpuCores: 0.3, memoryBytes: 100 * 1024 * 1024 },
    /** Usage by time and pod (wins over `usage`); undefined: the pod has no sample at that time. */
    readonly usageAt?: (at: number, pod: string) => { cpuCores: number; memoryBytes: number } | undefined,
  ) {}

  private containers(namespaces: readonly string[]): Array<{ namespace: string; pod: string; container: string }> {
    return namespaces.flatMap((namespace) =>
      this.server.store.list('pods', namespace).flatMap((p) =>
        ((p as { spec?: { containers?: Array<{ name: string }> } }).spec?.containers ?? []).map((c) => ({
          namespace,
          pod: p.metadata.name ?? '',
          container: c.name,
        })),
      ),
    );
  }

  private series(namespaces: readonly string[], range: StepRange, resource: 'cpuCores' | 'memoryBytes'): Answer<ContainerSeries[]> {
    const steps: number[] = [];
    for (let t = range.start; t <= range.end; t += range.step) steps.push(t);
    const data = this.containers(namespaces).map((key) => {
      if (!this.usageAt) return { key, times: steps, values: steps.map(() => this.usage[resource]) };
      const times: number[] = [];
      const values: number[] = [];
      for (const t of steps) {
        const u = this.usageAt(t, key.pod);
        if (u === undefined) continue;
        times.push(t);
        values.push(u[resource]);
      }
      return { key, times, values };
    });
    return { data: data.filter((s) => s.times.length > 0), quality: cleanQuality() };
  }

  async namespaceSizes(): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    for (const p of this.server.store.list('pods')) sizes.set(p.metadata.namespace ?? '', (sizes.get(p.metadata.namespace ?? '') ?? 0) + 1);
    return sizes;
  }

  async cpuUsage(namespaces: readonly string[], range: StepRange): Promise<Answer<ContainerSeries[]>> {
    this.cpuRanges.push(range);
    return this.series(namespaces, range, 'cpuCores');
  }

  async memoryPeaks(namespaces: readonly string[], range: StepRange): Promise<Answer<ContainerSeries[]>> {
    return this.series(namespaces, range, 'memoryBytes');
  }

  async oomKills(): Promise<Answer<OomEvent[]>> {
    return { data: [], quality: cleanQuality() };
  }

  async owners(): Promise<OwnerLink[]> {
    return [];
  }

  async resources(): Promise<ContainerResources[]> {
    return [];
  }
}
