/**
 * The demo's history as OpenMetrics text for `promtool tsdb create-blocks-from openmetrics`:
 * the same metric names and label sets kube-sim serves at /metrics/cadvisor and
 * /metrics/kube-state (taken from its own writers, so the backfilled and the scraped series are
 * one), with values from the usage history. Pure: a generator of lines (timestamps in seconds,
 * each metric's samples together, `# EOF` last).
 *
 * Worked number: a container steady at 0.5 cores sampled every 30 s has a CPU counter growing
 * 15 CPU-seconds a sample: 15, 30, 45, ...; `rate(...[1m])` reads 0.5 back.
 */
import type { MetricFamily } from 'kube-sim/metrics/prometheus-text';
import { sampleTimes, usageOfHistory, type ContainerHistory } from './usage-history.ts';
import { containerId } from '../metrics/metrics-source.ts';

/** One series to backfill: usage from a history, or a value that stays as it is now. */
export type HistorySeries =
  | { metric: string; labels: Record<string, string>; usage: 'cpu' | 'memory'; history: ContainerHistory }
  | { metric: string; labels: Record<string, string>; constant: number; from: number; to: number };

/** cAdvisor families whose values come from the history. */
const USAGE_METRICS: Record<string, 'cpu' | 'memory'> = {
  container_cpu_usage_seconds_total: 'cpu',
  container_memory_working_set_bytes: 'memory',
};

/** kube-state-metrics families backfilled with their current value (requests, limits, owners). */
export const CONSTANT_METRICS = [
  'kube_pod_container_resource_requests',
  'kube_pod_container_resource_limits',
  'kube_pod_owner',
  'kube_replicaset_owner',
  'kube_pod_labels',
] as const;

/** The labels Prometheus adds to what it scrapes (`job`, `instance`), per endpoint. */
export interface ScrapeLabels {
  cadvisor: Record<string, string>;
  kubeState: Record<string, string>;
}

/**
 * The series to backfill from the sim's current families: each cAdvisor CPU / working-set sample
 * of a container with a history, and the constant kube-state families over the same span. Each
 * gets the `job` and `instance` labels its scrape will add, so history and live samples are one
 * series (`{job="cadvisor", instance="127.0.0.1:6443", pod="web-1", ...}`).
 */
export function historySeries(
  cadvisor: readonly MetricFamily[],
  kubeState: readonly MetricFamily[],
  histories: readonly ContainerHistory[],
  scrape: ScrapeLabels,
): HistorySeries[] {
  const byId = new Map(histories.map((h) => [containerId(h.key), h]));
  const out: HistorySeries[] = [];
  for (const f of cadvisor) {
    const usage = USAGE_METRICS[f.name];
    if (!usage) continue;
    for (const s of f.samples) {
      const h = byId.get(containerId({ namespace: s.labels['namespace'] ?? '', pod: s.labels['pod'] ?? '', container: s.labels['container'] ?? '' }));
      if (h) out.push({ metric: f.name, labels: { ...s.labels, ...scrape.cadvisor }, usage, history: h });
    }
  }
  if (histories.length === 0) return out;
  const from = Math.min(...histories.map((h) => h.start));
  const to = Math.max(...histories.map((h) => h.end));
  for (const f of kubeState) {
    if (!(CONSTANT_METRICS as readonly string[]).includes(f.name)) continue;
    for (const s of f.samples) out.push({ metric: f.name, labels: { ...s.labels, ...scrape.kubeState }, constant: s.value, from, to });
  }
  return out;
}

function labelText(labels: Record<string, string>): string {
  return `{${Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(',')}}`;
}

/**
 * OpenMetrics lines of `series`: usage every `intervalMs`, constants every `constantIntervalMs`.
 * The CPU counter integrates the usage over each interval (cores x seconds).
 */
export function* openMetricsLines(series: readonly HistorySeries[], intervalMs: number, constantIntervalMs = 300_000): Generator<string> {
  const sorted = [...series].sort((a, b) => a.metric.localeCompare(b.metric));
  for (const s of sorted) {
    const name = `${s.metric}${labelText(s.labels)}`;
    if ('constant' in s) {
      for (const t of sampleTimes(s.from, s.to, constantIntervalMs)) yield `${name} ${s.constant} ${t / 1000}`;
      continue;
    }
    let counter = 0;
    for (const t of sampleTimes(s.history.start, s.history.end, intervalMs)) {
      const u = usageOfHistory(s.history, t);
      if (s.usage === 'cpu') {
        counter += (u.cpuCores * intervalMs) / 1000;
        yield `${name} ${Number(counter.toFixed(6))} ${t / 1000}`;
      } else {
        yield `${name} ${Math.round(u.memoryBytes)} ${t / 1000}`;
      }
    }
  }
  yield '# EOF';
}
