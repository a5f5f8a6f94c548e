/**
 * Until the bootstrap has read its history: the pods that are gone but left owner series in the
 * bootstrap window are routed to the VPA of their workload, so their history counts
 * (history-attribution.ts matches them; a gone pod's boosted start-up is dropped for its VPA's boost
 * window, decision 0234). HistoryContext is what both of the loop's own history reads (this one
 * and new-vpa-history.ts) work with.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { MetricsSource } from '../metrics/metrics-source.ts';
import { OwnerIndex } from '../metrics/owner-resolution.ts';
import type { SourceMetrics } from '../metrics/source-metrics.ts';
import type { Logger } from '../observability/logger.ts';
import type { BackfillPlan } from './backfill-plan.ts';
import { boostWindow, goneRoute } from './boosted-startup.ts';
import { attributeGonePods } from './history-attribution.ts';
import type { RecommenderMetrics } from './recommender-metrics.ts';
import type { RecommenderConfig } from './recommender-options.ts';
import type { VpaAggregates } from './vpa-aggregates.ts';
import type { VpaView } from './vpa-views.ts';

/** What the loop's history reads besides the feed's (gone pods, new VPAs) work with. */
export interface HistoryContext {
  /** The recommender's rows of the run configuration (history, step, points per query, backfill VPAs). */
  config: RecommenderConfig;
  /** The usage history and the owner series. */
  source: MetricsSource;
  /** The recommender's own metrics (pods attributed, backfills). */
  metrics: RecommenderMetrics;
  /** The run's Prometheus traffic metrics. */
  prometheus: SourceMetrics;
  log: Logger;
  /** Where the history goes. */
  aggregates: VpaAggregates;
  /** The VPAs created after the feed read their namespace, waiting for their history. */
  backfillPlan: BackfillPlan;
  /** The pods that exist now (the watch's). */
  pods: () => readonly KubernetesObject[];
}

/**
 * Routes the pods that are gone but left owner series in the bootstrap window (`window` ms back
 * from `now`) to the VPA of their workload, so their history counts. True once done; false when
 * no VPA is ready for it or the owner series were not readable (tried again next cycle).
 */
export async function attributeGonePodHistory(views: readonly VpaView[], now: number, window: number, ctx: HistoryContext): Promise<boolean> {
  const targets = views
    .filter((v) => !v.problem && !ctx.backfillPlan.isPending(v.id))
    .map((v) => ({
      vpaId: v.id,
      namespace: v.vpa.metadata.namespace ?? '',
      kind: v.vpa.spec.targetRef.kind,
      name: v.vpa.spec.targetRef.name,
      ...boostWindow(v.vpa),
    }));
  const namespaces = [...new Set(targets.map((t) => t.namespace))];
  if (namespaces.length === 0) return false;
  let attributed = false;
  try {
    const owners = new OwnerIndex(await ctx.source.owners(namespaces, now, window));
    const current = new Set(ctx.pods().map((p) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`));
    const routes = attributeGonePods(owners, current, targets);
    // A gone pod's boosted start-up is dropped for its VPA's boost window (decision 0234).
    ctx.aggregates.routePods(routes.map((r) => goneRoute(r, targets.find((t) => t.vpaId === r.vpaId)?.boostWindowMs, now - window, ctx.config.historyStep)));
    ctx.metrics.attributedPods.inc(routes.length);
    attributed = true;
    ctx.log.info({ pods: routes.length }, 'history of pods already gone attributed to their VPAs through owner series');
  } catch (err) {
    ctx.log.warn({ err }, 'owner series not readable; the history of pods already gone is attributed next cycle');
  }
  return attributed;
}
