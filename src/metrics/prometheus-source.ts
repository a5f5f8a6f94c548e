/**
 * The Prometheus adapter of the {@link MetricsSource} port: builds the batched PromQL, splits
 * ranges under the 11,000-points limit, runs them through {@link PrometheusQueryClient} and decodes
 * the answers into container series, OOM events, owner links and current resources.
 */
import { moduleLogger, type Logger } from '../observability/logger.ts';
import type { QueryConfig } from './metric-names.ts';
import { MEMORY_USAGE_NAMESPACES_PER_QUERY, type ContainerMemoryUsage, type MemoryUsageSource, type MemoryUsageWindows } from './memory-usage-source.ts';
import type {
  Answer,
  ContainerKey,
  ContainerResources,
  ContainerSeries,
  DataQuality,
  MetricsSource,
  OomEvent,
  OwnerLink,
  StepRange,
} from './metrics-source.ts';
import { addQuality, cleanQuality, containerId } from './metrics-source.ts';
import { typicalInterval } from './scrape-interval.ts';
import {
  containerSeriesSelector,
  cpuUsageQuery,
  rawCpuSamplesQuery,
  memoryPeakQuery,
  memoryUsageQuery,
  namespaceSizesQuery,
  oomKillsQuery,
  ownerSeriesSelectors,
  initContainerSelector,
  resourcesQuery,
} from './promql-queries.ts';
import { PROMETHEUS_MAX_POINTS_PER_SERIES, splitRange } from './range-plan.ts';
import { decodeJsonSeries, finishMatrix, keyOf, mergeSeries, type JsonRangeSeries } from './series-decode.ts';
import type { PrometheusQueryClient } from './query-client.ts';

/** Windows longer than this are sized through the series API (index only) rather than a count query. */
export const INDEX_LOOKUP_ABOVE_MS = 3600_000;

interface RawInstant {
  metric: { labels: object };
  value: { time: Date; value: number };
}

export class PrometheusMetricsSource implements MetricsSource, MemoryUsageSource {
  private readonly log: Logger;

  constructor(
    private readonly client: PrometheusQueryClient,
    private readonly cfg: QueryConfig,
    logger: Logger,
  ) {
    this.log = moduleLogger(logger, 'prometheus-source');
  }

  /**
   * Up to an hour back an instant `count` query (cheap, tiny answer: the steady-state cycle);
   * further back the series API, which reads only the index (a `last_over_time` over 8 days would
   * load every sample and hit the server's max-samples limit on a large cluster).
   */
  async namespaceSizes(at: number, windowMs: number, namespaces?: readonly string[]): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    const nsLabel = this.cfg.labels.namespace;
    if (windowMs <= INDEX_LOOKUP_ABOVE_MS) {
      const answer = await this.client.instant(namespaceSizesQuery(this.cfg, windowMs, namespaces), at);
      this.noteWarnings(answer.warnings, 'namespace sizes');
      for (const item of answer.result.result as RawInstant[]) {
        const ns = (item.metric.labels as Record<string, unknown>)[nsLabel];
        if (typeof ns === 'string' && Number.isFinite(item.value.value)) sizes.set(ns, item.value.value);
      }
      return sizes;
    }
    const answer = await this.client.series([containerSeriesSelector(this.cfg, namespaces)], at - windowMs, at);
    this.noteWarnings(answer.warnings, 'namespace sizes');
    const seen = new Set<string>();
    for (const metric of answer.result) {
      const key = keyOf(metric.labels, this.cfg.labels);
      if (!key) continue;
      const id = containerId(key);
      if (seen.has(id)) continue; // the same container from several jobs / cAdvisor ids
      seen.add(id);
      sizes.set(key.namespace, (sizes.get(key.namespace) ?? 0) + 1);
    }
    return sizes;
  }

  cpuUsage(namespaces: readonly string[], range: StepRange, rateWindowMs?: number): Promise<Answer<ContainerSeries[]>> {
    return this.matrix(cpuUsageQuery(this.cfg, namespaces, range.step, rateWindowMs), range, 'cpu usage');
  }

  /** The median gap between raw CPU samples of `namespaces` (one instant query of a range selector). */
  async scrapeInterval(namespaces: readonly string[], at: number, windowMs: number): Promise<number | undefined> {
    const answer = await this.client.instant(rawCpuSamplesQuery(this.cfg, namespaces, windowMs), at);
    this.noteWarnings(answer.warnings, 'scrape interval');
    const series = answer.result.result as Array<{ values?: Array<{ time: Date }> }>;
    return typicalInterval(series.map((s) => (s.values ?? []).map((v) => v.time.getTime())));
  }

  memoryPeaks(namespaces: readonly string[], range: StepRange): Promise<Answer<ContainerSeries[]>> {
    return this.matrix(memoryPeakQuery(this.cfg, namespaces, range.step), range, 'memory peaks');
  }

  async oomKills(namespaces: readonly string[], range: StepRange): Promise<Answer<OomEvent[]>> {
    const answer = await this.matrix(oomKillsQuery(this.cfg, namespaces, range.step), range, 'oom kills');
    const events: OomEvent[] = [];
    for (const s of answer.data) {
      for (let i = 0; i < s.times.length; i++) {
        const count = Math.round(s.values[i]!);
        if (count > 0) events.push({ key: s.key, at: s.times[i]!, count });
      }
    }
    return { data: events, quality: answer.quality };
  }

  /** Owner links from the label sets of the owner series (series API: no samples loaded). */
  async owners(namespaces: readonly string[], at: number, windowMs: number): Promise<OwnerLink[]> {
    const answer = await this.client.series(ownerSeriesSelectors(this.cfg, namespaces), at - windowMs, at);
    this.noteWarnings(answer.warnings, 'owners');
    const m = this.cfg.metrics;
    const links = new Map<string, OwnerLink>();
    for (const metric of answer.result) {
      const l = metric.labels as Record<string, string | undefined>;
      const namespace = l[this.cfg.labels.namespace];
      const ownerKind = l.owner_kind ?? '';
      const ownerName = l.owner_name ?? '';
      let link: OwnerLink | undefined;
      if (!namespace) continue;
      const pod = l[this.cfg.labels.pod];
      if (metric.name === m.podOwner && pod) link = { namespace, kind: 'Pod', name: pod, ownerKind, ownerName };
      else if (metric.name === m.replicaSetOwner && l.replicaset) link = { namespace, kind: 'ReplicaSet', name: l.replicaset, ownerKind, ownerName };
      else if (metric.name === m.jobOwner && l.job_name) link = { namespace, kind: 'Job', name: l.job_name, ownerKind, ownerName };
      if (link) links.set(`${link.namespace}/${link.kind}/${link.name}/${link.ownerKind}/${link.ownerName}`, link);
    }
    return [...links.values()];
  }

  async resources(namespaces: readonly string[], at: number, lookbackMs: number): Promise<ContainerResources[]> {
    const answer = await this.client.instant(resourcesQuery(this.cfg, namespaces, lookbackMs), at);
    this.noteWarnings(answer.warnings, 'resources');
    const byId = new Map<string, ContainerResources>();
    for (const item of answer.result.result as RawInstant[]) {
      const key = keyOf(item.metric.labels, this.cfg.labels);
      const l = item.metric.labels as Record<string, string | undefined>;
      const value = item.value.value;
      if (!key || !Number.isFinite(value) || (l.resource !== 'cpu' && l.resource !== 'memory')) continue;
      const id = containerId(key);
      let entry = byId.get(id);
      if (!entry) {
        entry = { key, requests: {}, limits: {} };
        byId.set(id, entry);
      }
      (l.kind === 'limit' ? entry.limits : entry.requests)[l.resource] = value;
    }
    return [...byId.keys()].sort().map((id) => byId.get(id)!);
  }

  async initContainers(namespaces: readonly string[], at: number, windowMs: number): Promise<ContainerKey[]> {
    const answer = await this.client.series([initContainerSelector(this.cfg, namespaces)], at - windowMs, at);
    this.noteWarnings(answer.warnings, 'init containers');
    const keys = new Map<string, ContainerKey>();
    for (const metric of answer.result) {
      const key = keyOf(metric.labels, this.cfg.labels);
      if (key) keys.set(containerId(key), key);
    }
    return [...keys.keys()].sort().map((id) => keys.get(id)!);
  }

  /** Recent peak and sustained working set per container: one instant query per 200 namespaces. */
  async memoryUsage(namespaces: readonly string[], at: number, windows: MemoryUsageWindows): Promise<ContainerMemoryUsage[]> {
    const byId = new Map<string, ContainerMemoryUsage>();
    const sorted = [...new Set(namespaces)].sort();
    for (let i = 0; i < sorted.length; i += MEMORY_USAGE_NAMESPACES_PER_QUERY) {
      const batch = sorted.slice(i, i + MEMORY_USAGE_NAMESPACES_PER_QUERY);
      const answer = await this.client.instant(memoryUsageQuery(this.cfg, batch, windows), at);
      this.noteWarnings(answer.warnings, 'memory usage');
      for (const item of answer.result.result as RawInstant[]) {
        const key = keyOf(item.metric.labels, this.cfg.labels);
        const kind = (item.metric.labels as Record<string, unknown>).kind;
        const value = item.value.value;
        if (!key || !Number.isFinite(value)) continue;
        const id = containerId(key);
        const entry = byId.get(id) ?? { key };
        byId.set(id, entry);
        if (kind === 'peak') entry.peakBytes = value;
        else if (kind === 'sustained') entry.sustainedBytes = value;
      }
    }
    return [...byId.keys()].sort().map((id) => byId.get(id)!);
  }

  /**
   * Runs a range query in chunks of at most 11,000 points and merges the chunks per container.
   * Each answer is decoded series by series as it arrives (no whole answer in memory).
   */
  private async matrix(query: string, range: StepRange, what: string): Promise<Answer<ContainerSeries[]>> {
    const quality = cleanQuality();
    const parts: ContainerSeries[] = [];
    const chunks = splitRange(range, PROMETHEUS_MAX_POINTS_PER_SERIES);
    for (const chunk of chunks) {
      let attempt: { parts: ContainerSeries[]; quality: DataQuality } = { parts: [], quality: cleanQuality() };
      const answer = await this.client.rangeStreamed(query, chunk.start, chunk.end, chunk.step, () => {
        const current = { parts: [] as ContainerSeries[], quality: cleanQuality() };
        attempt = current;
        return (item) => {
          const series = decodeJsonSeries(item as JsonRangeSeries, this.cfg.labels, current.quality);
          if (series) current.parts.push(series);
        };
      });
      this.noteWarnings(answer.warnings, what);
      const decoded = finishMatrix(attempt.parts, chunk, attempt.quality);
      addQuality(quality, decoded.quality);
      quality.warnings.push(...answer.warnings.filter((w) => !quality.warnings.includes(w)));
      if (chunks.length === 1) return { data: decoded.series, quality }; // merged already (finishMatrix)
      for (const s of decoded.series) parts.push(s); // no spread: an answer can hold 100,000s of series
    }
    return { data: mergeSeries(parts), quality };
  }

  private noteWarnings(warnings: readonly string[], what: string): void {
    if (warnings.length > 0) this.log.warn({ warnings, what }, 'Prometheus answered with warnings; the data may be incomplete');
  }
}
