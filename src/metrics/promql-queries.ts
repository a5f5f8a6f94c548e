/**
 * Pure PromQL builders for everything the recommender reads. Every query is batched over a set of
 * namespaces (never one query per pod or container), carries the configured extra selector, and
 * excludes the pause container (`POD`) and the pod-level cgroup (empty container name).
 *
 * Series from several scrape jobs (two Prometheus jobs scraping the same kubelet) are merged on
 * the server with `max by (namespace, pod, container)`: deterministic, and the duplicate never
 * crosses the wire.
 */
import { duration, matcher, oneOf, selector } from './promql-selector.ts';
import type { QueryConfig } from './metric-names.ts';

function containerMatchers(cfg: QueryConfig, namespaces?: readonly string[]): string[] {
  const l = cfg.labels;
  const out = [matcher(l.container, '!=', ''), matcher(l.container, '!=', 'POD')];
  if (namespaces) out.unshift(oneOf(l.namespace, namespaces));
  return out;
}

function byContainer(cfg: QueryConfig): string {
  const l = cfg.labels;
  return `${l.namespace}, ${l.pod}, ${l.container}`;
}

/**
 * The selector of the CPU series of containers (for the series API, which reads only the index):
 * discovers namespaces and sizes the batches over days of history without loading samples.
 */
export function containerSeriesSelector(cfg: QueryConfig, namespaces?: readonly string[]): string {
  return selector(cfg.metrics.cpuUsageSeconds, containerMatchers(cfg, namespaces), cfg.extraSelector);
}

/** Selectors of the owner series (kube_pod_owner, kube_replicaset_owner, kube_job_owner), for the series API. */
export function ownerSeriesSelectors(cfg: QueryConfig, namespaces: readonly string[]): string[] {
  const ns = [oneOf(cfg.labels.namespace, namespaces)];
  return [cfg.metrics.podOwner, cfg.metrics.replicaSetOwner, cfg.metrics.jobOwner].map((m) => selector(m, ns, cfg.extraSelector));
}

/**
 * The ordinary init containers of the namespaces' pods, for the series API (no samples loaded):
 * kube-state-metrics' init container info without `restart_policy="Always"` (native sidecars run
 * beside the containers and count as containers).
 */
export function initContainerSelector(cfg: QueryConfig, namespaces: readonly string[]): string {
  return selector(cfg.metrics.initContainerInfo, [oneOf(cfg.labels.namespace, namespaces), matcher('restart_policy', '!=', 'Always')], cfg.extraSelector);
}

/**
 * Number of container series per namespace seen in the (short) window ending at the query time:
 * one cheap instant query that both discovers namespaces and sizes the batches of a cycle. Over
 * long windows use {@link containerSeriesSelector} with the series API instead: this loads every
 * sample of the window and would exceed the server's max-samples limit on a large cluster.
 */
export function namespaceSizesQuery(cfg: QueryConfig, windowMs: number, namespaces?: readonly string[]): string {
  const sel = selector(cfg.metrics.cpuUsageSeconds, containerMatchers(cfg, namespaces), cfg.extraSelector);
  return `count by (${cfg.labels.namespace}) (count by (${byContainer(cfg)}) (last_over_time(${sel}[${duration(windowMs)}])))`;
}

/**
 * CPU cores used per container: `rate` of the cAdvisor counter (rate handles counter resets) over
 * `rateWindowMs`, by default the step. With a 60 s window a point at 12:01 is the mean usage from
 * 12:00 to 12:01, e.g. 30 CPU-seconds used in that minute -> 0.5 cores. The window must hold two
 * samples or more: the feed widens it to 4 scrape intervals (scrape-interval.ts).
 */
export function cpuUsageQuery(cfg: QueryConfig, namespaces: readonly string[], stepMs: number, rateWindowMs = stepMs): string {
  const sel = selector(cfg.metrics.cpuUsageSeconds, containerMatchers(cfg, namespaces), cfg.extraSelector);
  return `max by (${byContainer(cfg)}) (rate(${sel}[${duration(Math.max(stepMs, rateWindowMs))}]))`;
}

/**
 * The raw CPU counter samples of the containers of `namespaces` over the last `windowMs` (an instant
 * query of a range selector answers with every sample and its time): the scrape interval is read
 * from their timestamps. Asked for one small namespace, so the answer stays small.
 */
export function rawCpuSamplesQuery(cfg: QueryConfig, namespaces: readonly string[], windowMs: number): string {
  return `${selector(cfg.metrics.cpuUsageSeconds, containerMatchers(cfg, namespaces), cfg.extraSelector)}[${duration(windowMs)}]`;
}

/**
 * Memory working-set peak per container per step: `max_over_time` over a window equal to the step,
 * so a spike scraped between two evaluation points is kept (a plain range query would return only
 * the sample at each point and hide it).
 */
export function memoryPeakQuery(cfg: QueryConfig, namespaces: readonly string[], stepMs: number): string {
  const sel = selector(cfg.metrics.memoryWorkingSet, containerMatchers(cfg, namespaces), cfg.extraSelector);
  return `max by (${byContainer(cfg)}) (max_over_time(${sel}[${duration(stepMs)}]))`;
}

/**
 * OOM kills per container per step: restarts in the step while kube-state-metrics says the last
 * termination was `OOMKilled`, or else cAdvisor's OOM event counter. A point (value = number of
 * kills, e.g. 1) exists only in steps with a kill. The kills in a step are the counter's value now
 * less its value one step ago (`x - x offset step`), not `increase(x[step])`: since Prometheus 3
 * (and in Thanos' and Mimir's engines) a range is open at its start, so with counters scraped
 * every step `[step]` holds one sample and `increase` says nothing, and with a 30 s scrape at a
 * 1 min step a kill in the first half of the step fell between two windows (found through Thanos
 * v0.42.5, test/thanos). The difference of two instant values counts each increment once on
 * either engine; a counter that went down (reset) is not a kill.
 */
export function oomKillsQuery(cfg: QueryConfig, namespaces: readonly string[], stepMs: number): string {
  const m = cfg.metrics;
  const by = byContainer(cfg);
  const w = duration(stepMs);
  const restarts = selector(m.restarts, containerMatchers(cfg, namespaces), cfg.extraSelector);
  const reason = selector(m.lastTerminatedReason, [...containerMatchers(cfg, namespaces), matcher('reason', '=', 'OOMKilled')], cfg.extraSelector);
  const events = selector(m.oomEvents, containerMatchers(cfg, namespaces), cfg.extraSelector);
  const kills = (counter: string) => `(${counter} - ${counter} offset ${w}) > 0`;
  const ksm = `max by (${by}) (${kills(restarts)}) and on (${by}) (max by (${by}) (${reason}) == 1)`;
  const cadvisor = `max by (${by}) (${kills(events)})`;
  return `(${ksm}) or (${cadvisor})`;
}

/**
 * Current CPU and memory requests and limits per container from kube-state-metrics (values in
 * cores and bytes), the last value within the lookback. The parts are told apart by a `kind`
 * label (`request` or `limit`) added with label_replace.
 */
export function resourcesQuery(cfg: QueryConfig, namespaces: readonly string[], lookbackMs: number): string {
  const m = cfg.metrics;
  const by = `${byContainer(cfg)}, resource`;
  const w = duration(lookbackMs);
  const matchers = [...containerMatchers(cfg, namespaces), matcher('resource', '=~', 'cpu|memory')];
  const part = (metric: string, kind: string) =>
    `label_replace(max by (${by}) (last_over_time(${selector(metric, matchers, cfg.extraSelector)}[${w}])), "kind", "${kind}", "", "")`;
  return `${part(m.requests, 'request')} or ${part(m.limits, 'limit')}`;
}

/**
 * Recent memory of every container, for the updater, in one instant query (per batch of
 * namespaces), told apart by a `kind` label:
 * - `kind="peak"`: the highest working set over `peakWindowMs` (the memory-safety floor);
 * - `kind="sustained"`: the lowest working set over `pressureWindowMs`, only for containers that
 *   already had a sample in the `coverageMs` before that window began, so a container that started
 *   30 s ago cannot look as if it had been above 90% of its limit for 2 minutes. With a 2 min
 *   window, a lowest value of 950 MiB against a 1 GiB limit (above 921.6 MiB) is memory pressure.
 */
export function memoryUsageQuery(
  cfg: QueryConfig,
  namespaces: readonly string[],
  windows: { peakWindowMs: number; pressureWindowMs: number; coverageMs: number },
): string {
  const by = byContainer(cfg);
  const sel = selector(cfg.metrics.memoryWorkingSet, containerMatchers(cfg, namespaces), cfg.extraSelector);
  const peak = `max by (${by}) (max_over_time(${sel}[${duration(windows.peakWindowMs)}]))`;
  const low = `max by (${by}) (min_over_time(${sel}[${duration(windows.pressureWindowMs)}]))`;
  const before = `max by (${by}) (present_over_time(${sel}[${duration(windows.coverageMs)}] offset ${duration(windows.pressureWindowMs)}))`;
  return `label_replace(${peak}, "kind", "peak", "", "") or label_replace(${low} and on (${by}) ${before}, "kind", "sustained", "", "")`;
}
