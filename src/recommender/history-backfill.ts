/**
 * Reads the history of VPAs created while the recommender runs (backfill-plan.ts says which, in
 * groups): the owner series of their namespaces attribute pods already gone to them
 * (history-attribution.ts), then one usage feed over those namespaces reads `historyMs` up to the
 * group's cursor `until` and hands on only the samples of these VPAs' pods (the other pods'
 * samples are in their VPAs already). The queries are the feed's: per namespace batch and chunk,
 * never per pod.
 *
 * Worked example: group {until 12:00, [shop], [shop/web]}, history 8 d, step 1 min, web's pods
 * {web-1 (current), web-old (gone, owner chain -> Deployment web)} -> one owners query, then the
 * CPU, memory and OOM queries over shop from 8 d before 12:00 (first point 8 d - 1 min before) to
 * 12:00, delivering the series of web-1 and web-old only.
 */
import type { ContainerSeries, MetricsSource, OomEvent } from '../metrics/metrics-source.ts';
import { OwnerIndex } from '../metrics/owner-resolution.ts';
import type { SourceMetrics } from '../metrics/source-metrics.ts';
import { UsageFeed, type SyncReport, type UsageSink } from '../metrics/usage-feed.ts';
import type { Logger } from '../observability/logger.ts';
import type { BackfillGroup } from './backfill-plan.ts';
import { goneRoute } from './boosted-startup.ts';
import { attributeGonePods, type VpaTarget } from './history-attribution.ts';
import type { PodRoute, VpaAggregates } from './vpa-aggregates.ts';

/**
 * A VPA to backfill: its target and current pods (with their containers' memory requests, bytes,
 * and, for a pod the webhook boosted, when its CPU usage is steady: `cpuSteadySince` of
 * policy/startup-boost.ts); `boostWindowMs` when the VPA asks for a start-up boost (its gone pods'
 * start-up is dropped for that long from their first sample, decision 0234).
 */
export interface BackfillTarget extends VpaTarget {
  pods: ReadonlyArray<{ pod: string; memoryRequests: ReadonlyMap<string, number>; cpuSteadySince?: number }>;
  boostWindowMs?: number;
}

export interface BackfillOptions {
  historyMs: number;
  stepMs: number;
  maxPointsPerQuery: number;
  /** The memory budget the answers are sized by (none: only maxPointsPerQuery). */
  memoryBudgetBytes?: number;
  /** The scrape interval (ms) if known; else the feed reads it from the data. */
  scrapeIntervalMs?: number;
}

/** What one group's read did. */
export interface BackfillResult {
  /** Pods whose history was read: current ones and gone ones attributed through owner series. */
  pods: number;
  gonePods: number;
  report: SyncReport;
}

/** The history read failed; nothing of it may stay in the aggregates (the caller forgets them). */
export class BackfillError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BackfillError';
  }
}

/** Passes on only the samples and kills of `pods` (`namespace/pod`). */
class PodFilterSink implements UsageSink {
  constructor(
    private readonly pods: ReadonlySet<string>,
    private readonly sink: UsageSink,
  ) {}
  private wanted(key: { namespace: string; pod: string }): boolean {
    return this.pods.has(`${key.namespace}/${key.pod}`);
  }
  cpu(series: ContainerSeries): void {
    if (this.wanted(series.key)) this.sink.cpu(series);
  }
  memory(series: ContainerSeries): void {
    if (this.wanted(series.key)) this.sink.memory(series);
  }
  oom(event: OomEvent): void {
    if (this.wanted(event.key)) this.sink.oom(event);
  }
  endChunk(): void {
    this.sink.endChunk?.();
  }
}

/**
 * Routes the group's pods (current and gone) to their VPAs in `aggregates` and reads their history
 * into it. Throws {@link BackfillError} when any query failed (part of the history may have
 * arrived: the caller forgets these VPAs and retries later).
 */
export async function backfillHistory(
  source: MetricsSource,
  group: BackfillGroup,
  targets: readonly BackfillTarget[],
  currentPods: ReadonlySet<string>,
  aggregates: VpaAggregates,
  options: BackfillOptions,
  logger: Logger,
  metrics?: SourceMetrics,
): Promise<BackfillResult> {
  let owners: OwnerIndex;
  try {
    owners = new OwnerIndex(await source.owners(group.namespaces, group.until, options.historyMs));
  } catch (err) {
    throw new BackfillError('owner series not readable', { cause: err });
  }
  const gone = attributeGonePods(owners, currentPods, targets);
  const readFrom = group.until - options.historyMs;
  const routes: PodRoute[] = [
    ...targets.flatMap((t) =>
      t.pods.map((p) => ({
        namespace: t.namespace,
        pod: p.pod,
        vpaId: t.vpaId,
        memoryRequests: p.memoryRequests,
        ...(p.cpuSteadySince === undefined ? {} : { cpuSteadySince: p.cpuSteadySince }),
      })),
    ),
    ...gone.map((r) => goneRoute(r, targets.find((t) => t.vpaId === r.vpaId)?.boostWindowMs, readFrom, options.stepMs)),
  ];
  aggregates.routePods(routes);
  const scrape = options.scrapeIntervalMs === undefined ? {} : { scrapeIntervalMs: options.scrapeIntervalMs };
  const feed = new UsageFeed(
    source,
    {
      historyMs: options.historyMs,
      stepMs: options.stepMs,
      lagMs: 0,
      maxPointsPerQuery: options.maxPointsPerQuery,
      ...(options.memoryBudgetBytes === undefined ? {} : { memoryBudgetBytes: options.memoryBudgetBytes }),
      namespaces: group.namespaces,
      ...scrape,
    },
    logger,
    metrics,
  );
  const report = await feed.sync(group.until, new PodFilterSink(new Set(routes.map((r) => `${r.namespace}/${r.pod}`)), aggregates));
  if (report.error !== undefined) throw new BackfillError('usage discovery failed', { cause: report.error });
  if (report.failed.length > 0) throw new BackfillError(`usage fetch failed for ${report.failed.join(', ')}`);
  return { pods: routes.length, gonePods: gone.length, report };
}
