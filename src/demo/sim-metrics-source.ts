/**
 * A {@link MetricsSource} straight from the simulator, for `tailor demo` where Prometheus cannot
 * run: steps up to the end of the history come from the usage history (the same values the
 * backfill would write), later steps from the live meters recorded by {@link LiveUsageRecorder}.
 * Owners and requests come from the pods the simulator holds now.
 */
import type { Answer, ContainerKey, ContainerResources, ContainerSeries, MetricsSource, OomEvent, OwnerLink, StepRange } from '../metrics/metrics-source.ts';
import { cleanQuality, containerId } from '../metrics/metrics-source.ts';
import { parseCpu, parseMemory } from 'kube-basics/quantity';
import type { Pod } from 'kube-sim/objects';
import type { LiveUsageRecorder } from './live-usage-recorder.ts';
import { sampleTimes, usageOfHistory, type ContainerHistory } from './usage-history.ts';

/** An object with owners (a ReplicaSet). */
export interface OwnedObject {
  metadata: { name?: string; namespace?: string; ownerReferences?: Array<{ kind: string; name: string }> };
}

export interface SimSourceInput {
  histories: readonly ContainerHistory[];
  recorder: LiveUsageRecorder;
  /** The pods and ReplicaSets the simulator holds now. */
  pods: () => readonly Pod[];
  replicaSets: () => readonly OwnedObject[];
  /** The history's sample interval (ms). */
  intervalMs: number;
}

export class SimMetricsSource implements MetricsSource {
  private readonly byId: Map<string, ContainerHistory>;

  constructor(private readonly input: SimSourceInput) {
    this.byId = new Map(input.histories.map((h) => [containerId(h.key), h]));
  }

  private keys(namespaces: readonly string[] | undefined, from: number, to: number): ContainerKey[] {
    const all = new Map<string, ContainerKey>();
    for (const h of this.input.histories) if (h.end > from && h.start <= to) all.set(containerId(h.key), h.key);
    for (const k of this.input.recorder.keys(from, to)) all.set(containerId(k), k);
    return [...all.values()].filter((k) => !namespaces || namespaces.includes(k.namespace));
  }

  /** The history's samples in (t - step, t], or undefined when `t` is after the history. */
  private historyPoints(key: ContainerKey, t: number, step: number): ReturnType<typeof usageOfHistory>[] | undefined {
    const h = this.byId.get(containerId(key));
    if (!h || t > h.end) return undefined;
    return sampleTimes(Math.max(h.start, t - step + 1), t, this.input.intervalMs).map((at) => usageOfHistory(h, at));
  }

  private series(namespaces: readonly string[], range: StepRange, value: (key: ContainerKey, t: number) => number | undefined): ContainerSeries[] {
    const out: ContainerSeries[] = [];
    for (const key of this.keys(namespaces, range.start - range.step, range.end)) {
      const s: ContainerSeries = { key, times: [], values: [] };
      for (let t = range.start; t <= range.end; t += range.step) {
        const v = value(key, t);
        if (v === undefined) continue;
        s.times.push(t);
        s.values.push(v);
      }
      if (s.times.length > 0) out.push(s);
    }
    return out;
  }

  async namespaceSizes(at: number, windowMs: number, namespaces?: readonly string[]): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    for (const k of this.keys(namespaces, at - windowMs, at)) sizes.set(k.namespace, (sizes.get(k.namespace) ?? 0) + 1);
    return sizes;
  }

  async cpuUsage(namespaces: readonly string[], range: StepRange): Promise<Answer<ContainerSeries[]>> {
    const data = this.series(namespaces, range, (key, t) => {
      const points = this.historyPoints(key, t, range.step);
      if (points) return points.length > 0 ? points.reduce((s, p) => s + p.cpuCores, 0) / points.length : undefined;
      return this.input.recorder.cpuCores(key, t - range.step, t);
    });
    return { data, quality: cleanQuality() };
  }

  async memoryPeaks(namespaces: readonly string[], range: StepRange): Promise<Answer<ContainerSeries[]>> {
    const data = this.series(namespaces, range, (key, t) => {
      const points = this.historyPoints(key, t, range.step);
      if (points) return points.length > 0 ? Math.max(...points.map((p) => p.memoryBytes)) : undefined;
      return this.input.recorder.memoryPeak(key, t - range.step, t);
    });
    return { data, quality: cleanQuality() };
  }

  async oomKills(namespaces: readonly string[], range: StepRange): Promise<Answer<OomEvent[]>> {
    const data: OomEvent[] = [];
    for (const key of this.keys(namespaces, range.start - range.step, range.end)) {
      for (let t = range.start; t <= range.end; t += range.step) {
        const count = this.input.recorder.oomKills(key, t - range.step, t);
        if (count > 0) data.push({ key, at: t, count });
      }
    }
    return { data, quality: cleanQuality() };
  }

  async owners(namespaces: readonly string[]): Promise<OwnerLink[]> {
    const links: OwnerLink[] = [];
    for (const p of this.input.pods()) {
      const ns = p.metadata.namespace ?? '';
      if (!namespaces.includes(ns)) continue;
      for (const o of p.metadata.ownerReferences ?? [])
        links.push({ namespace: ns, kind: 'Pod', name: p.metadata.name ?? '', ownerKind: o.kind, ownerName: o.name });
    }
    for (const rs of this.input.replicaSets()) {
      const ns = rs.metadata.namespace ?? '';
      if (!namespaces.includes(ns)) continue;
      for (const o of rs.metadata.ownerReferences ?? [])
        links.push({ namespace: ns, kind: 'ReplicaSet', name: rs.metadata.name ?? '', ownerKind: o.kind, ownerName: o.name });
    }
    return links;
  }

  async resources(namespaces: readonly string[]): Promise<ContainerResources[]> {
    const out: ContainerResources[] = [];
    for (const p of this.input.pods()) {
      const ns = p.metadata.namespace ?? '';
      if (!namespaces.includes(ns)) continue;
      for (const c of p.spec.containers) {
        const list = (l: Record<string, string> | undefined) => ({
          ...(l?.['cpu'] !== undefined ? { cpu: parseCpu(l['cpu']) / 1000 } : {}),
          ...(l?.['memory'] !== undefined ? { memory: parseMemory(l['memory']) } : {}),
        });
        out.push({
          key: { namespace: ns, pod: p.metadata.name ?? '', container: c.name },
          requests: list(c.resources?.requests),
          limits: list(c.resources?.limits),
        });
      }
    }
    return out;
  }
}
