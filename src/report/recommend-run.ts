/**
 * The one-shot report: discover the namespaces with usage, read owners and current resources from
 * kube-state-metrics, feed the history into one model per workload container, and estimate. Every
 * read is batched per group of namespaces. Fails (typed) when the source is unreachable or when
 * part of the history could not be read, rather than printing a silently partial report.
 */
import type { Logger } from '../observability/logger.ts';
import type { MetricsSource, ContainerKey, ContainerResources, OwnerLink } from '../metrics/metrics-source.ts';
import { containerId } from '../metrics/metrics-source.ts';
import { PartialDataError } from '../metrics/metrics-errors.ts';
import { batchNamespaces } from '../metrics/namespace-batches.ts';
import { OwnerIndex } from '../metrics/owner-resolution.ts';
import { FEED_DEFAULTS, UsageFeed, type FeedOptions, type SyncReport, type UsageSink } from '../metrics/usage-feed.ts';
import type { SourceMetrics } from '../metrics/source-metrics.ts';
import type { Strategy } from '../model/types.ts';
import type { ClusterResources } from './cluster-resources.ts';
import { buildRows, currentByWorkload, type ReportRow } from './report-rows.ts';
import { WorkloadUsage } from './workload-usage.ts';
import { UsageOutline } from './audit/usage-outline.ts';
import { missingSeriesWarnings, sparseDataWarnings, type OwnerAndResourceNames } from './data-warnings.ts';
import { DEFAULT_METRIC_NAMES } from '../metrics/metric-names.ts';

export interface RecommendInput {
  source: MetricsSource;
  strategy: Strategy;
  /** Evaluation time (ms). */
  now: number;
  /** Only these namespaces (default: all with usage). */
  namespaces?: readonly string[];
  feed?: Omit<FeedOptions, 'namespaces'>;
  /** How far back to look for the current requests and limits (default 1 h). */
  resourcesLookbackMs?: number;
  /**
   * Reads the current requests, limits and owners from the cluster (`--kubeconfig`) instead of
   * kube-state-metrics. Owner links from Prometheus are kept too: pods of the history that are gone
   * from the cluster still resolve to their workload.
   */
  readCluster?: (namespaces: readonly string[]) => Promise<ClusterResources>;
  /** Names of the owner and resource series, for the warnings when they are missing (default: kube-state-metrics'). */
  metricNames?: OwnerAndResourceNames;
  logger: Logger;
  metrics?: SourceMetrics;
  onProgress?: (done: number, total: number) => void;
  /** Also keep a usage outline of this many points per workload container over the window (the audit's charts). */
  outlinePoints?: number;
}

/** No usage data matched: the URL, the namespaces or the metric names are probably wrong. */
export class NoUsageDataError extends Error {
  override readonly name = 'NoUsageDataError';
}

export interface RecommendResult {
  rows: ReportRow[];
  sync: SyncReport;
  /** What the reader must know about the data (one line each): missing series, sparse data, memory resizePolicies that do not fit a container's runtime (with --kubeconfig). */
  warnings: string[];
  /** With `outlinePoints`: the usage outline of each row, ending at now (usage-outline.ts). */
  outlines?: UsageOutline;
}

const HOUR = 3600_000;

export async function runRecommend(input: RecommendInput): Promise<RecommendResult> {
  const historyMs = input.feed?.historyMs ?? 8 * 24 * HOUR;
  const log = input.logger.child({ component: 'recommend' });
  const sizes = await input.source.namespaceSizes(input.now, historyMs, input.namespaces);
  if (sizes.size === 0) {
    const where = input.namespaces?.length ? `namespaces ${input.namespaces.join(', ')}` : 'any namespace';
    throw new NoUsageDataError(
      `no container CPU usage found for ${where} in the last ${Math.round(historyMs / HOUR)}h (check the Prometheus URL, --namespace, --selector and the metric names)`,
    );
  }
  const namespaces = [...sizes.keys()].sort();
  log.info({ namespaces: namespaces.length, containers: [...sizes.values()].reduce((a, b) => a + b, 0) }, 'namespaces found');

  const links: OwnerLink[] = [];
  const resources: ContainerResources[] = [];
  const runtimeWarnings: string[] = [];
  // Ordinary init containers: from the cluster's pods and from kube-state-metrics' history (pods gone too).
  const initContainers = new Set<string>();
  if (input.readCluster) {
    const cluster = await input.readCluster(namespaces);
    links.push(...cluster.links);
    resources.push(...cluster.resources);
    runtimeWarnings.push(...(cluster.runtimeWarnings ?? []));
    for (const key of cluster.initContainers ?? []) initContainers.add(containerId(key));
  }
  for (const batch of batchNamespaces(sizes, 1, 20_000)) {
    links.push(...(await input.source.owners(batch.namespaces, input.now, historyMs)));
    if (!input.readCluster) resources.push(...(await input.source.resources(batch.namespaces, input.now, input.resourcesLookbackMs ?? HOUR)));
    for (const key of (await input.source.initContainers?.(batch.namespaces, input.now, historyMs)) ?? []) initContainers.add(containerId(key));
  }
  if (initContainers.size > 0) log.info({ initContainers: initContainers.size }, 'ordinary init containers left out of the report');
  const owners = new OwnerIndex(links);
  const memoryRequests = new Map(resources.map((r) => [containerId(r.key), r.requests.memory]));
  const containersPerPod = new Map<string, number>();
  for (const r of resources) containersPerPod.set(`${r.key.namespace}/${r.key.pod}`, (containersPerPod.get(`${r.key.namespace}/${r.key.pod}`) ?? 0) + 1);

  const usage = new WorkloadUsage(
    input.strategy,
    owners,
    (key) => memoryRequests.get(containerId(key)),
    (ns, pod) => containersPerPod.get(`${ns}/${pod}`) ?? 1,
  );
  const feed = new UsageFeed(input.source, { ...input.feed, namespaces }, input.logger, input.metrics);
  // Buckets no finer than the samples' step, or the charts' lines would break between samples.
  const outlines =
    input.outlinePoints === undefined
      ? undefined
      : new UsageOutline(owners, input.now - historyMs, input.now, input.outlinePoints, input.feed?.stepMs ?? FEED_DEFAULTS.stepMs);
  const sink = withoutContainers(outlines ? tee(usage, outlines) : usage, initContainers);
  const sync = await feed.sync(input.now, sink, input.onProgress);
  if (sync.failed.length > 0) {
    throw new PartialDataError(
      `could not read the usage history of ${sync.failed.length} namespace(s): ${[...new Set(sync.failed)].join(', ')}; see the log for the cause`,
      sync.failed,
    );
  }
  const rows = buildRows(usage.containers(), currentByWorkload(resources, owners), input.now);
  const missing = input.readCluster ? [] : missingSeriesWarnings(rows, links, resources, input.metricNames ?? DEFAULT_METRIC_NAMES);
  return { rows, sync, warnings: [...missing, ...sparseDataWarnings(rows, sync), ...runtimeWarnings], ...(outlines ? { outlines } : {}) };
}

/**
 * `sink` without the series and OOM kills of the containers in `ids` (`namespace/pod/container`):
 * ordinary init containers run before the workload's containers, nothing resizes them, and a row of
 * their own would only mislead (as the recommender drops them, recommender/init-containers.ts).
 */
function withoutContainers(sink: UsageSink, ids: ReadonlySet<string>): UsageSink {
  if (ids.size === 0) return sink;
  const keep = (key: ContainerKey) => !ids.has(containerId(key));
  return {
    cpu: (s) => {
      if (keep(s.key)) sink.cpu(s);
    },
    memory: (s) => {
      if (keep(s.key)) sink.memory(s);
    },
    oom: (e) => {
      if (keep(e.key)) sink.oom(e);
    },
    ...(sink.endChunk ? { endChunk: () => sink.endChunk!() } : {}),
  };
}

/** One sink feeding two: the models, then the outline. */
function tee(first: WorkloadUsage, second: UsageOutline): UsageSink {
  return {
    cpu: (s) => (first.cpu(s), second.cpu(s)),
    memory: (s) => (first.memory(s), second.memory(s)),
    oom: (e) => (first.oom(e), second.oom(e)),
    endChunk: () => first.endChunk(),
  };
}
