/**
 * Synthetic cAdvisor + kube-state-metrics series for a set of containers, with the exact values a
 * correct source must read back: the CPU counter integrates a known usage function (so the rate
 * over each minute is that function's value; scraped every 15 s), memory is sampled off the minute (at :15 and :45) so
 * every backend puts each sample in the same step window, and kube-state-metrics series give
 * owners, requests, limits and OOM kills.
 */
import type { FixtureSeries } from './fixture-series.ts';

export const MINUTE = 60_000;

export type FixtureOwner =
  | { kind: 'Deployment'; name: string; replicaSet: string }
  | { kind: 'CronJob'; name: string; job: string }
  | { kind: 'StatefulSet' | 'DaemonSet'; name: string }
  | { kind: 'none' };

export interface FixtureContainer {
  namespace: string;
  pod: string;
  container: string;
  owner: FixtureOwner;
  /** CPU cores used during the minute ending at t. */
  cpuCores(t: number): number;
  /** Working set at t (sampled at :15 and :45 of every minute). */
  memoryBytes(t: number): number;
  requests?: { cpu?: number; memory?: number };
  limits?: { cpu?: number; memory?: number };
  /** OOM kills (restart + last terminated reason) at these minute-aligned times. */
  oomKillsAt?: number[];
  /** Reports OOM kills through cAdvisor's container_oom_events_total instead of kube-state-metrics. */
  oomViaCadvisor?: boolean;
  /** The CPU counter restarts from 0 at this minute-aligned time (a container restart). */
  counterResetAt?: number;
  /** The CPU counter is NaN at these times (a broken scrape). */
  cpuNaNAt?: number[];
  /** Scraped by two jobs: every cAdvisor series appears twice (job a and job b). */
  duplicated?: boolean;
  /** An init container of its pod (kube-state-metrics' kube_pod_init_container_info): ordinary, or a native sidecar (restart_policy="Always"). */
  initContainer?: 'ordinary' | 'sidecar';
}

export interface FixtureOptions {
  start: number;
  end: number;
  /** Labels on every series (e.g. cluster). */
  extraLabels?: Record<string, string>;
  /** Interval of the kube-state-metrics series (default 10 min). */
  ksmIntervalMs?: number;
  /** Interval of the CPU counter samples (default 15 s; must divide a minute). */
  cpuIntervalMs?: number;
}

function times(start: number, end: number, every: number, offset = 0): number[] {
  const out: number[] = [];
  for (let t = start + offset; t <= end; t += every) out.push(t);
  return out;
}

/** Builds the series for the containers over [start, end] (minute-aligned). */
export function usageFixture(containers: readonly FixtureContainer[], options: FixtureOptions): FixtureSeries[] {
  const { start, end } = options;
  const extra = options.extraLabels ?? {};
  const ksmEvery = options.ksmIntervalMs ?? 10 * MINUTE;
  const out: FixtureSeries[] = [];
  const ownerSeen = new Set<string>();
  for (const c of containers) {
    const id = { ...extra, namespace: c.namespace, pod: c.pod, container: c.container };
    const jobs = c.duplicated ? ['a', 'b'] : ['kubelet'];
    // CPU counter: cumulative CPU-seconds, scraped every 15 s (so a 1-minute rate window holds
    // 4 scrape intervals, decision 0175); the minute ending at m accrues cpuCores(m) evenly.
    const cpu: Array<[number, number]> = [[start, c.cpuNaNAt?.includes(start) ? NaN : 0]];
    let before = 0;
    const every = options.cpuIntervalMs ?? 15_000;
    for (const m of times(start + MINUTE, end, MINUTE)) {
      const from = c.counterResetAt === m ? 0 : before;
      for (let at = every; at <= MINUTE; at += every) {
        const t = m - MINUTE + at;
        cpu.push([t, c.cpuNaNAt?.includes(t) ? NaN : from + (c.cpuCores(m) * at) / 1000]);
      }
      before = from + c.cpuCores(m) * 60;
    }
    const memory: Array<[number, number]> = [];
    for (const t of times(start, end, 30_000, 15_000)) memory.push([t, c.memoryBytes(t)]);
    for (const job of jobs) {
      out.push({ metric: 'container_cpu_usage_seconds_total', labels: { ...id, job, cpu: 'total' }, samples: cpu });
      out.push({ metric: 'container_memory_working_set_bytes', labels: { ...id, job }, samples: memory });
    }
    const ksmTimes = times(start, end, ksmEvery);
    const ksm = { ...extra, namespace: c.namespace, pod: c.pod, container: c.container, job: 'kube-state-metrics' };
    const gauge = (metric: string, labels: Record<string, string>, value: number) => out.push({ metric, labels, samples: ksmTimes.map((t) => [t, value]) });
    for (const [resource, value] of Object.entries(c.requests ?? {}))
      gauge('kube_pod_container_resource_requests', { ...ksm, resource, unit: resource === 'cpu' ? 'core' : 'byte' }, value);
    for (const [resource, value] of Object.entries(c.limits ?? {}))
      gauge('kube_pod_container_resource_limits', { ...ksm, resource, unit: resource === 'cpu' ? 'core' : 'byte' }, value);
    // kube-state-metrics writes restart_policy="" for an ordinary init container: Prometheus keeps no empty label.
    if (c.initContainer) gauge('kube_pod_init_container_info', { ...ksm, ...(c.initContainer === 'sidecar' ? { restart_policy: 'Always' } : {}) }, 1);
    const kills = [...(c.oomKillsAt ?? [])].sort((a, b) => a - b);
    if (kills.length > 0 && c.oomViaCadvisor) {
      const samples = times(start, end, MINUTE).map((t): [number, number] => [t, kills.filter((k) => k <= t).length]);
      out.push({ metric: 'container_oom_events_total', labels: { ...id, job: 'kubelet' }, samples });
    } else if (kills.length > 0) {
      const samples = times(start, end, MINUTE).map((t): [number, number] => [t, kills.filter((k) => k <= t).length]);
      out.push({ metric: 'kube_pod_container_status_restarts_total', labels: ksm, samples });
      out.push({
        metric: 'kube_pod_container_status_last_terminated_reason',
        labels: { ...ksm, reason: 'OOMKilled' },
        samples: samples.filter(([t]) => t >= kills[0]!).map(([t]) => [t, 1]),
      });
    }
    const podKey = `${c.namespace}/${c.pod}`;
    if (!ownerSeen.has(podKey)) {
      ownerSeen.add(podKey);
      const o = c.owner;
      const podOwner = (kind: string, name: string) =>
        gauge(
          'kube_pod_owner',
          { ...extra, namespace: c.namespace, pod: c.pod, owner_kind: kind, owner_name: name, owner_is_controller: 'true', job: 'kube-state-metrics' },
          1,
        );
      if (o.kind === 'Deployment') {
        podOwner('ReplicaSet', o.replicaSet);
        const rsKey = `${c.namespace}/rs/${o.replicaSet}`;
        if (!ownerSeen.has(rsKey)) {
          ownerSeen.add(rsKey);
          gauge(
            'kube_replicaset_owner',
            {
              ...extra,
              namespace: c.namespace,
              replicaset: o.replicaSet,
              owner_kind: 'Deployment',
              owner_name: o.name,
              owner_is_controller: 'true',
              job: 'kube-state-metrics',
            },
            1,
          );
        }
      } else if (o.kind === 'CronJob') {
        podOwner('Job', o.job);
        gauge(
          'kube_job_owner',
          {
            ...extra,
            namespace: c.namespace,
            job_name: o.job,
            owner_kind: 'CronJob',
            owner_name: o.name,
            owner_is_controller: 'true',
            job: 'kube-state-metrics',
          },
          1,
        );
      } else if (o.kind === 'none') podOwner('<none>', '<none>');
      else podOwner(o.kind, o.name);
    }
  }
  return out;
}
