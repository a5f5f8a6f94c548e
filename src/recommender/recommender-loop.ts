/**
 * The recommender's loop: VPAs in, recommendations and checkpoints out, independent of how it is
 * scheduled (the controller's component runs it under leader election, recommender-component.ts).
 *
 * activate (on becoming leader): watch VPAs and pods, restore every checkpoint of a handled VPA,
 * and create the usage feed with a history window that starts at the oldest restored
 * `lastSampleStart` (the full `--history` only when nothing was restored).
 * runOnce: resolve each VPA's target to its pods (of the VPAs on one workload, only the
 * controlling one, the oldest: `controllingVpas`, decision 0277; vpa-views.ts); until the bootstrap
 * has read its history, attribute pods already gone to their VPA through the owner series
 * (gone-pod-history.ts); ingest new usage from Prometheus and OOM kills from pod status,
 * write each changed status (recommender-statuses.ts), write the checkpoints that are due (`--checkpoint-interval`), delete
 * orphaned ones when the sweep is due (`--checkpoint-gc-interval`; recommender-checkpoints.ts), and
 * publish the gauges. Writes are retried by error class (recommender-writes.ts). A failure on one
 * VPA is logged and shown on that VPA; the others go on.
 * A VPA created later, in a namespace the feed already reads, gets its workload's history at once
 * (decision 0162): before the routing, up to `--history-backfill-vpas` such VPAs per cycle have
 * their pods' `--history` read (new-vpa-history.ts); until then their pods are
 * not routed and the VPA shows FetchingHistory.
 * deactivate: on a graceful shutdown, write once more every checkpoint with samples since its last
 * write (the Lease is still held; decision 0287);
 * then stop the watches and drop leader-only state.
 * `--recommender-strategy tailor`: the status comes from the tailor strategy's model per VPA x
 * container (vpa-aggregates.ts feeds it), which models the updater with the options the operator
 * set (configured-strategy.ts); the upstream state goes on feeding the checkpoints'
 * status, and each model's state goes into an annotation of the same checkpoint
 * (model-state-annotation.ts, decision 0261). When every restored checkpoint brings a model state
 * that restores, the bootstrap reads only the history since the oldest of them; otherwise (a
 * state missing, corrupt, or from another version or settings: a warning) the full `--history`,
 * which rebuilds the models without one (decision 0150).
 */
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { Clock, Sleep } from '../kube/clock.ts';
import { WatchCache } from '../kube/watch-cache.ts';
import type { MetricsSource } from '../metrics/metrics-source.ts';
import { UsageFeed, type SyncReport } from '../metrics/usage-feed.ts';
import { defaultModelConfig } from '../model/model-config.ts';
import type { Strategy } from '../model/types.ts';
import { limitHeapGrowth } from '../observability/heap-growth.ts';
import type { Logger } from '../observability/logger.ts';
import { BackfillPlan } from './backfill-plan.ts';
import { steadySince } from './boosted-startup.ts';
import { attributeGonePodHistory, type HistoryContext } from './gone-pod-history.ts';
import { ordinaryInitContainers } from '../policy/init-containers.ts';
import { modelBytes } from './model-bytes.ts';
import { backfillNewVpas } from './new-vpa-history.ts';
import { memoryRequests, podOomKills } from './pod-oom-kills.ts';
import type { RunMetrics } from './run-metrics.ts';
import { RecommenderCheckpoints } from './recommender-checkpoints.ts';
import { RecommenderKube, VPA_RESOURCE } from './recommender-kube.ts';
import type { RecommenderMetrics } from './recommender-metrics.ts';
import type { RecommenderConfig } from './recommender-options.ts';
import { RecommenderStatuses } from './recommender-statuses.ts';
import { RecommenderWriter } from './recommender-writes.ts';
import { VpaAggregates } from './vpa-aggregates.ts';
import { vpaId, VpaViews, type VpaView } from './vpa-views.ts';

/** Everything the loop needs besides the time. */
export interface RecommenderLoopDeps {
  /** The recommender's rows of the run configuration (history, checkpoints, rounding, strategy). */
  config: RecommenderConfig;
  /** The cluster: watches of VPAs and pods, status, checkpoint and Event writes. */
  kubeConfig: KubeConfig;
  /** The usage history (Prometheus in `tailor run`). */
  source: MetricsSource;
  logger: Logger;
  /** The recommender's own write, history and memory metrics. */
  metrics: RecommenderMetrics;
  /** The run's shared metrics: phase durations, tracked gauges, recommendation series. */
  runMetrics: RunMetrics;
  /** The strategy behind the status; undefined for upstream's algorithm (`--recommender-strategy vpa`). */
  strategy: Strategy | undefined;
  /** Which VPAs this recommender handles (namespace selection, `spec.recommenders`). */
  handles: (vpa: VerticalPodAutoscaler) => boolean;
  /** The namespaces the feed reads; undefined: all. */
  namespaces: readonly string[] | undefined;
  /** Who reports the Events (the leader's identity). */
  instance: string;
  /** `--memory-budget`, or the container's memory limit; undefined: none (decision 0225). */
  memoryBudget: number | undefined;
  clock: Clock;
  /** Waits between write retries (default: timers). */
  sleep?: Sleep;
  /** Backoff jitter source (default Math.random). */
  random?: () => number;
}

/** Runs cycles while leader; holds the models, the feed and the checkpoints' schedule between them. */
export class RecommenderLoop {
  private readonly log: Logger;
  private readonly kube: RecommenderKube;
  private vpaCache: WatchCache<KubernetesObject> | undefined;
  private podCache: WatchCache<KubernetesObject> | undefined;
  private aggregates: VpaAggregates;
  private feed: UsageFeed | undefined;
  private bootstrapped = false;
  private seenOoms = new Set<string>();
  private readonly checkpoints: RecommenderCheckpoints;
  /** VPAs created after the feed read their namespace, waiting for their history (decision 0162). */
  private backfillPlan = new BackfillPlan();
  /** Gone pods have been attributed for the bootstrap window. */
  private attributed = false;
  /** The views of the last cycle (for the checkpoint flush at shutdown). */
  private lastViews: VpaView[] = [];
  private readonly vpaViews: VpaViews;
  private readonly writer: RecommenderWriter;
  private readonly statuses: RecommenderStatuses;
  /** The oldest `lastSampleStart` restored (and model state time with a strategy), or undefined when nothing was restored. */
  private pendingResume: number | undefined;
  /** With a strategy: every restored checkpoint brought a model state that restored. */
  private modelsResumed = false;
  /** The last sync report (for tests and logs). */
  lastSync: SyncReport | undefined;

  constructor(private readonly deps: RecommenderLoopDeps) {
    const { config, logger } = deps;
    this.log = logger;
    this.aggregates = new VpaAggregates(defaultModelConfig(), deps.strategy);
    this.kube = new RecommenderKube(deps.kubeConfig);
    this.vpaViews = new VpaViews(this.kube, logger, deps.handles);
    this.writer = new RecommenderWriter({
      metrics: deps.metrics,
      logger: logger.child({ part: 'writes' }),
      clock: deps.clock,
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      ...(deps.random ? { random: deps.random } : {}),
    });
    this.checkpoints = new RecommenderCheckpoints({
      kube: this.kube,
      writer: this.writer,
      log: logger,
      strategy: deps.strategy,
      intervalMs: config.checkpointInterval,
      gcIntervalMs: config.checkpointGcInterval,
    });
    this.statuses = new RecommenderStatuses({ kube: this.kube, writer: this.writer, log: logger, config, strategy: deps.strategy, instance: deps.instance });
    deps.metrics.memoryBudget.set(deps.memoryBudget ?? 0);
  }

  /** The cached VPAs (possibly malformed: validated before use). */
  private vpas(): VerticalPodAutoscaler[] {
    return (this.vpaCache?.list() ?? []) as unknown as VerticalPodAutoscaler[];
  }

  /** Starts the watches and restores the checkpoints of the handled VPAs (on becoming leader). */
  async activate(): Promise<void> {
    const { kubeConfig, strategy } = this.deps;
    this.vpaCache = new WatchCache<KubernetesObject>({ kubeConfig, resource: VPA_RESOURCE, logger: this.log });
    this.podCache = new WatchCache<KubernetesObject>({ kubeConfig, resource: { group: '', version: 'v1', plural: 'pods' }, logger: this.log });
    const caches = [this.vpaCache, this.podCache];
    await Promise.all(caches.map((c) => c.start()));
    await Promise.all(caches.map((c) => c.synced()));
    this.aggregates = new VpaAggregates(defaultModelConfig(), strategy);
    this.bootstrapped = false;
    this.attributed = false;
    this.backfillPlan = new BackfillPlan();
    this.lastViews = [];
    this.statuses.reset();
    this.checkpoints.reset();
    this.modelsResumed = false;
    const handled = new Set(
      this.vpas()
        .filter((v) => this.deps.handles(v))
        .map((v) => vpaId(v.metadata.namespace, v.metadata.name)),
    );
    const restored = await this.checkpoints.restore(handled, this.aggregates);
    this.modelsResumed = restored.modelsResumed;
    this.feed = undefined;
    this.pendingResume = restored.oldest;
  }

  /**
   * The history the first sync reads: `--history`, or back to the oldest restored checkpoint. With
   * a strategy, `--history` unless every restored checkpoint brought its model's state.
   */
  private bootstrapWindow(now: number): number {
    const { config } = this.deps;
    const step = config.historyStep;
    if (this.deps.strategy && !this.modelsResumed) return config.history;
    // Resume from the oldest checkpoint: only the samples after it are read again (one step of
    // overlap; samples already in a checkpoint are skipped by the aggregates).
    return this.pendingResume === undefined ? config.history : Math.min(config.history, Math.max(step, now - this.pendingResume + step));
  }

  private createFeed(now: number): UsageFeed {
    const { config, namespaces } = this.deps;
    const step = config.historyStep;
    const historyMs = this.bootstrapWindow(now);
    // The bootstrap's garbage is kept in proportion to the model, not to V8's heap limit (decision 0265).
    const heapGrowth = limitHeapGrowth();
    const scrape = config.scrapeInterval === undefined ? {} : { scrapeIntervalMs: config.scrapeInterval };
    const feed = new UsageFeed(
      this.deps.source,
      { historyMs, stepMs: step, maxPointsPerQuery: config.maxPointsPerQuery, ...this.budget(), ...scrape, ...(namespaces ? { namespaces } : {}) },
      this.log,
      this.deps.runMetrics.prometheus,
    );
    this.log.info(
      { memoryBudget: this.deps.memoryBudget ?? 'none', pointsPerQuery: feed.pointsPerQuery, heapGrowth: heapGrowth ?? 'as node was started' },
      'history reads sized',
    );
    return feed;
  }

  /** The budget and what a new series adds to the model, so reads are sized from the headroom left. */
  private budget(): { memoryBudgetBytes?: number; modelBytesPerSeries?: number } {
    const { memoryBudget } = this.deps;
    return memoryBudget === undefined ? {} : { memoryBudgetBytes: memoryBudget, modelBytesPerSeries: modelBytes(this.deps.config.recommenderStrategy, 1) };
  }

  /** Stops the watches and drops leader-only state; with `flush` (a graceful shutdown, still leader) first writes every checkpoint with new samples. */
  async deactivate(flush: boolean): Promise<void> {
    const { runMetrics } = this.deps;
    if (flush && this.lastViews.length > 0) {
      // Still leader: the Lease is released only after this returns, so no one else writes yet.
      const { written, failed } = await runMetrics.timePhase('recommender', 'checkpoints', () =>
        this.writeCheckpoints(this.lastViews, this.deps.clock(), new AbortController().signal, { all: true }),
      );
      this.log[failed > 0 ? 'warn' : 'info'](
        { written, failed },
        `checkpoints written at shutdown: ${written}${failed > 0 ? ` (${failed} failed; the next leader reads their history again)` : ''}`,
      );
    }
    this.lastViews = [];
    await Promise.all([this.vpaCache?.stop(), this.podCache?.stop()]);
    this.vpaCache = undefined;
    this.podCache = undefined;
    this.feed = undefined;
  }

  /** One cycle at `now` (ms); throws only when no VPA status could be written. */
  async runOnce(now: number, signal: AbortSignal): Promise<void> {
    const { config, runMetrics, metrics } = this.deps;
    if (!this.vpaCache || !this.podCache) throw new Error('recommender runCycle before activate');
    const podCache = this.podCache;
    const views = await runMetrics.timePhase('recommender', 'resolve-targets', () => this.vpaViews.resolve(this.vpas(), (ns) => podCache.list(ns), now));
    // Upstream 1.8's per-VPA memory settings, applied to the VPA's histories from now on.
    for (const v of views) if (!v.problem) this.aggregates.configure(v.id, v.resourcePolicy);
    const cursorOf = (ns: string) => this.feed?.cursor(ns);
    this.backfillPlan.observe(
      views.map((v) => ({ id: v.id, namespace: v.vpa.metadata.namespace ?? '', ready: !v.problem })),
      cursorOf,
    );
    if (this.backfillPlan.pendingCount > 0)
      await runMetrics.timePhase('recommender', 'backfill-history', () =>
        backfillNewVpas(views, cursorOf, this.historyContext(), { budget: this.budget(), scrapeIntervalMs: this.feed?.scrapeIntervalMs }),
      );
    metrics.backfillPending.set(this.backfillPlan.pendingCount);
    // A VPA still waiting for its history gets no samples from the feed: its read covers them later.
    const routes = views
      .filter((v) => !this.backfillPlan.isPending(v.id))
      .flatMap((v) =>
        v.pods.map((p) => ({
          namespace: p.metadata.namespace,
          pod: p.metadata.name,
          vpaId: v.id,
          memoryRequests: memoryRequests(p),
          initContainers: ordinaryInitContainers(p),
          ...steadySince(p),
        })),
      );
    this.aggregates.routePods(routes, now);

    // Only useful before the bootstrap's samples arrive: afterwards they have been routed or dropped.
    if (!this.attributed && !this.bootstrapped) this.attributed = await attributeGonePodHistory(views, now, this.bootstrapWindow(now), this.historyContext());
    this.feed ??= this.createFeed(now);
    const progress = (done: number, total: number) => {
      metrics.historyChunks.set({ state: 'done' }, done);
      metrics.historyChunks.set({ state: 'total' }, total);
    };
    const report = await runMetrics.timePhase('recommender', 'fetch-usage', () => this.feed!.sync(now, this.aggregates, progress));
    const histories = this.aggregates.size();
    metrics.histories.set(histories);
    metrics.modelBytes.set(modelBytes(config.recommenderStrategy, histories));
    this.lastSync = report;
    if (report.error === undefined && report.failed.length === 0) this.bootstrapped = true;
    const usageProblem =
      report.error !== undefined ? `Prometheus unavailable: ${report.error instanceof Error ? report.error.message : String(report.error)}` : undefined;
    this.recordPodOoms(views);
    // Histories of VPAs with a problem this cycle are kept (a transient API error loses nothing).
    this.aggregates.prune(now, new Set(views.map((v) => v.id)));

    const { series, writeFailures } = await runMetrics.timePhase('recommender', 'write-status', () =>
      this.statuses.write(views, this.aggregates, now, signal, {
        fetchingHistory: (id) => !this.bootstrapped || this.backfillPlan.isPending(id),
        usageProblem,
      }),
    );
    this.lastViews = views;
    if (!signal.aborted) await runMetrics.timePhase('recommender', 'checkpoints', () => this.writeCheckpoints(views, now, signal, { all: false }));
    runMetrics.replaceRecommendations(series);
    runMetrics.trackedVpas.set({ component: 'recommender' }, views.length);
    runMetrics.trackedContainers.set({ component: 'recommender' }, this.aggregates.size());
    if (writeFailures > 0 && writeFailures === views.length) throw new Error(`no VPA status could be written (${writeFailures} failures)`);
  }

  /** The due checkpoints of `views` written, orphans collected (recommender-checkpoints.ts). */
  private writeCheckpoints(views: readonly VpaView[], now: number, signal: AbortSignal, o: { all: boolean }): Promise<{ written: number; failed: number }> {
    const existing = () => new Set(this.vpas().map((v) => vpaId(v.metadata.namespace, v.metadata.name)));
    return this.checkpoints.write(views, this.aggregates, existing, now, signal, o);
  }

  /** OOM kills on pod status, each recorded once (only the kills still reported are remembered). */
  private recordPodOoms(views: readonly VpaView[]): void {
    const current = new Set<string>();
    for (const v of views) {
      for (const pod of v.pods) {
        for (const kill of podOomKills(pod)) {
          current.add(kill.id);
          if (this.seenOoms.has(kill.id)) continue;
          // Valued at the request the container had at the kill (the updater may have raised it since).
          if (this.aggregates.recordOom({ namespace: kill.namespace, pod: kill.pod, container: kill.container }, kill.at)) {
            this.log.info({ vpa: v.id, pod: kill.pod, container: kill.container }, 'OOM kill recorded from pod status');
          }
        }
      }
    }
    this.seenOoms = current;
  }

  /** What the history reads besides the feed's work with (gone-pod-history.ts, new-vpa-history.ts). */
  private historyContext(): HistoryContext {
    const { config, source, metrics, runMetrics } = this.deps;
    const { aggregates, backfillPlan } = this;
    return { config, source, metrics, prometheus: runMetrics.prometheus, log: this.log, aggregates, backfillPlan, pods: () => this.podCache?.list() ?? [] };
  }
}
