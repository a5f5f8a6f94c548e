/**
 * A VPA created later, in a namespace the feed already reads, gets its workload's history at once
 * (decision 0162): the VPAs the backfill plan holds (backfill-plan.ts), at most
 * `--history-backfill-vpas` a cycle, are read one group (one set of queries per namespace) at a
 * time (history-backfill.ts). A failed group is forgotten and retried next cycle.
 */
import { boostWindow, steadySince } from './boosted-startup.ts';
import type { HistoryContext } from './gone-pod-history.ts';
import { backfillHistory, type BackfillTarget } from './history-backfill.ts';
import { memoryRequests } from './pod-oom-kills.ts';
import type { VpaView } from './vpa-views.ts';

/** How the backfill's reads are sized, as the feed's. */
export interface BackfillSizing {
  /** The memory budget and what a new series adds to the model (none: only the points per query). */
  budget: { memoryBudgetBytes?: number; modelBytesPerSeries?: number };
  /** The scrape interval the main feed read from the data, so a backfill does not read it again. */
  scrapeIntervalMs: number | undefined;
}

/**
 * Reads the history of the VPAs created after the feed read their namespace, at most
 * `--history-backfill-vpas` this cycle, one group (one set of queries per namespace) at a time.
 * A failed group is forgotten and retried next cycle.
 */
export async function backfillNewVpas(
  views: readonly VpaView[],
  cursorOf: (ns: string) => number | undefined,
  ctx: HistoryContext,
  sizing: BackfillSizing,
): Promise<void> {
  const { config, metrics } = ctx;
  const byId = new Map(views.map((v) => [v.id, v]));
  const currentPods = new Set(ctx.pods().map((p) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`));
  const options = {
    historyMs: config.history,
    stepMs: config.historyStep,
    maxPointsPerQuery: config.maxPointsPerQuery,
    ...sizing.budget,
    scrapeIntervalMs: sizing.scrapeIntervalMs,
  };
  for (const group of ctx.backfillPlan.next(config.historyBackfillVpas, cursorOf)) {
    const targets: BackfillTarget[] = group.vpaIds.map((id) => {
      const v = byId.get(id)!;
      return {
        vpaId: id,
        namespace: v.vpa.metadata.namespace ?? '',
        kind: v.vpa.spec.targetRef.kind,
        name: v.vpa.spec.targetRef.name,
        pods: v.pods.map((p) => ({ pod: p.metadata.name, memoryRequests: memoryRequests(p), ...steadySince(p) })),
        ...boostWindow(v.vpa),
      };
    });
    const log = { vpas: group.vpaIds.length, namespaces: group.namespaces, until: new Date(group.until).toISOString() };
    try {
      const result = await backfillHistory(ctx.source, group, targets, currentPods, ctx.aggregates, options, ctx.log, ctx.prometheus);
      ctx.backfillPlan.done(group.vpaIds);
      metrics.backfills.inc({ outcome: 'ok' }, group.vpaIds.length);
      metrics.attributedPods.inc(result.gonePods);
      ctx.log.info(
        { ...log, pods: result.pods, gonePods: result.gonePods, cpuSamples: result.report.cpuSamples, memorySamples: result.report.memorySamples },
        'history of VPAs created since start-up read from Prometheus',
      );
    } catch (err) {
      for (const id of group.vpaIds) ctx.aggregates.forget(id);
      metrics.backfills.inc({ outcome: 'failed' }, group.vpaIds.length);
      ctx.log.warn({ ...log, err }, 'history of new VPAs not read; retried next cycle');
    }
  }
}
