/**
 * The simulator's live usage as a scraper would keep it, for the demo without Prometheus: the
 * cAdvisor-style counters of each running container, recorded every few seconds (the shell calls
 * {@link LiveUsageRecorder.record} with the kubelet's meters) and read back per step like
 * `rate(...)` and `max_over_time(...)`. Samples older than `keepMs` are dropped.
 */
import type { ContainerKey } from '../metrics/metrics-source.ts';
import { containerId } from '../metrics/metrics-source.ts';

/** One reading of a container's meter. */
export interface MeterReading {
  key: ContainerKey;
  cpuSecondsTotal: number;
  workingSetBytes: number;
  oomEventsTotal: number;
}

interface Recorded {
  key: ContainerKey;
  times: number[];
  cpu: number[];
  memory: number[];
  oom: number[];
}

export class LiveUsageRecorder {
  private readonly series = new Map<string, Recorded>();

  constructor(private readonly keepMs = 3_600_000) {}

  /** Adds the readings taken at `now` (ms). */
  record(now: number, readings: readonly MeterReading[]): void {
    for (const r of readings) {
      const id = containerId(r.key);
      let s = this.series.get(id);
      if (!s) this.series.set(id, (s = { key: r.key, times: [], cpu: [], memory: [], oom: [] }));
      s.times.push(now);
      s.cpu.push(r.cpuSecondsTotal);
      s.memory.push(r.workingSetBytes);
      s.oom.push(r.oomEventsTotal);
      while (s.times.length > 0 && s.times[0]! < now - this.keepMs) {
        s.times.shift();
        s.cpu.shift();
        s.memory.shift();
        s.oom.shift();
      }
    }
  }

  /** Every container recorded in (from, to]. */
  keys(from: number, to: number): ContainerKey[] {
    return [...this.series.values()].filter((s) => s.times.some((t) => t > from && t <= to)).map((s) => s.key);
  }

  private window(key: ContainerKey, from: number, to: number): { times: number[]; cpu: number[]; memory: number[]; oom: number[] } | undefined {
    const s = this.series.get(containerId(key));
    if (!s) return undefined;
    const idx = s.times.flatMap((t, i) => (t > from && t <= to ? [i] : []));
    if (idx.length === 0) return undefined;
    return { times: idx.map((i) => s.times[i]!), cpu: idx.map((i) => s.cpu[i]!), memory: idx.map((i) => s.memory[i]!), oom: idx.map((i) => s.oom[i]!) };
  }

  /**
   * Mean CPU cores in (from, to]: the counter's increase over the time between the first and last
   * reading (undefined with fewer than two). Worked number: 10 s apart, counter 4.0 -> 6.5: 0.25.
   */
  cpuCores(key: ContainerKey, from: number, to: number): number | undefined {
    const w = this.window(key, from, to);
    if (!w || w.times.length < 2) return undefined;
    const span = (w.times[w.times.length - 1]! - w.times[0]!) / 1000;
    const used = w.cpu[w.cpu.length - 1]! - w.cpu[0]!;
    return span > 0 && used >= 0 ? used / span : undefined;
  }

  /** Highest working set in (from, to]. */
  memoryPeak(key: ContainerKey, from: number, to: number): number | undefined {
    const w = this.window(key, from, to);
    return w ? Math.max(...w.memory) : undefined;
  }

  /**
   * OOM kills in (from, to]: the increase of the OOM counter from the last reading at or before
   * `from` (or, without one, the first reading in the window) to the last reading in it.
   */
  oomKills(key: ContainerKey, from: number, to: number): number {
    const s = this.series.get(containerId(key));
    if (!s) return 0;
    let before: number | undefined;
    let first: number | undefined;
    let last: number | undefined;
    for (let i = 0; i < s.times.length; i++) {
      if (s.times[i]! <= from) before = s.oom[i];
      else if (s.times[i]! <= to) {
        first ??= s.oom[i];
        last = s.oom[i];
      }
    }
    return last === undefined ? 0 : Math.max(0, last - (before ?? first ?? last));
  }
}
