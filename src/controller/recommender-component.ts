/**
 * The recommender component of `tailor run`: VPAs in, recommendations and checkpoints out.
 *
 * activate (on becoming leader): watch VPAs and pods, restore every checkpoint of a handled VPA,
 * and create the usage feed with a history window that starts at the oldest restored
 * `lastSampleStart` (the full `--history` only when nothing was restored).
 * runCycle: resolve each VPA's target to its pods (of the VPAs on one workload, only the
 * controlling one, the oldest: `controllingVpas`, decision 0277); until the bootstrap has read its
 * history, attribute pods already gone to their VPA through the owner series
 * (history-attribution.ts); ingest new usage from Prometheus and OOM kills from pod status,
 * write each changed status, write the checkpoints that are due (`--checkpoint-interval`), delete
 * orphaned ones when the sweep is due (`--checkpoint-gc-interval`), and publish the gauges. Writes
 * are retried by error class (recommender-writes.ts). A failure on one VPA is logged and shown on
 * that VPA; the others go on.
 * A VPA created later, in a namespace the feed already reads, gets its workload's history at once
 * (decision 0162): before the routing, up to `--history-backfill-vpas` such VPAs per cycle have
 * their pods' `--history` read (backfill-plan.ts, history-backfill.ts); until then their pods are
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
import { buildCheckpoint, checkpointName } from '../api/vpa-checkpoint.ts';
import { formatFieldErrors } from '../api/field-errors.ts';
import { parseRfc3339 } from '../api/rfc3339.ts';
import { validateVpa, type VpaValidation } from '../api/validate-vpa.ts';
import { controllingVpas, targetOf, workloadKey } from '../api/controlling-vpa.ts';
import { resourceListToAmounts } from '../api/vpa-quantities.ts';
import type { PodResourcePolicy, RecommendedPodResources, VerticalPodAutoscaler } from '../api/vpa.ts';
import { prometheusConnection, prometheusQueryConfig } from '../metrics/prometheus-options.ts';
import type { RunConfig } from './run-config.ts';
import { classificationOf } from '../kube/errors.ts';
import { WatchCache } from '../kube/watch-cache.ts';
import type { MetricsSource } from '../metrics/metrics-source.ts';
import { PrometheusMetricsSource } from '../metrics/prometheus-source.ts';
import { PrometheusQueryClient } from '../metrics/query-client.ts';
import { UsageFeed, type SyncReport } from '../metrics/usage-feed.ts';
import { limitHeapGrowth } from '../observability/heap-growth.ts';
import { cgroupMemoryLimit } from '../observability/cgroup-memory.ts';
import { modelBytes } from '../recommender/model-bytes.ts';
import type { ControllerMetrics, RecommendationSeries } from './controller-metrics.ts';
import type { Logger } from '../observability/logger.ts';
import { loadAggregateCheckpoint, saveAggregateCheckpoint } from '../model/aggregate-checkpoint.ts';
import { defaultModelConfig } from '../model/model-config.ts';
import type { AggregateContainerState } from '../model/aggregate-container-state.ts';
import type { Strategy, UsageModel } from '../model/types.ts';
import type { ComponentContext, DeactivateReason, LoopComponent } from './component.ts';
import { systemClock, type Clock, type Sleep } from '../kube/clock.ts';
import { OwnerIndex } from '../metrics/owner-resolution.ts';
import { attributeGonePods } from '../recommender/history-attribution.ts';
import { BackfillPlan } from '../recommender/backfill-plan.ts';
import { backfillHistory, type BackfillTarget } from '../recommender/history-backfill.ts';
import { boostWindow, goneRoute, steadySince } from '../recommender/boosted-startup.ts';
import { CheckpointSchedule } from '../recommender/checkpoint-schedule.ts';
import { ignoredSettings } from '../recommender/ignored-settings.ts';
import { RecommenderMetrics } from '../recommender/recommender-metrics.ts';
import { RecommenderWriter } from '../recommender/recommender-writes.ts';
import { statusRefusedEvent } from '../recommender/vpa-events.ts';
import type { CycleContext } from './loop-scheduler.ts';
import { handlesRecommenders, namespaceSelected, watchNamespaces } from './vpa-selection.ts';
import { orphanCheckpoints } from '../recommender/checkpoint-orphans.ts';
import { decodeModelState, encodeModelState, MODEL_STATE_ANNOTATION } from '../recommender/model-state-annotation.ts';
import { SelectorParseError, selectorMatches, type LabelSelector } from '../recommender/label-selector.ts';
import { TargetBackoff, targetKey } from '../recommender/target-backoff.ts';
import { TargetSelectorError } from '../recommender/target-selector.ts';
import { memoryRequest, podOomKills, type PodLike } from '../recommender/pod-oom-kills.ts';
import { RecommenderKube, VPA_RESOURCE } from '../recommender/recommender-kube.ts';
import { VpaAggregates, type ModelThrough, type TrackedContainer } from '../recommender/vpa-aggregates.ts';
import { cappedRecommendation, vpaRecommendation } from '../recommender/vpa-recommendation.ts';
import { strategyEstimates } from '../recommender/strategy-estimates.ts';
import { configuredStrategy } from '../recommender/configured-strategy.ts';
import { decideVpaStatus, type VpaProblem } from '../recommender/vpa-status-decision.ts';
import { describeRecommendationChange } from '../recommender/recommendation-change.ts';
import { RepeatedWarnings } from '../observability/repeated-warnings.ts';

type Pod = PodLike & { metadata: { name: string; namespace: string }; status?: PodLike['status'] & { phase?: string } };

/** What tests may replace. */
export interface RecommenderDeps {
  /** The usage source (default: Prometheus from the configuration). */
  source?: MetricsSource;
  /** Waits between write retries (default: timers). */
  sleep?: Sleep;
  /** Backoff jitter source (default Math.random). */
  random?: () => number;
}

/** One cycle's view of a handled VPA. */
interface VpaView {
  id: string;
  vpa: VerticalPodAutoscaler;
  /** The validated spec's resource policy of a VPA whose target resolved (its per-VPA memory settings). */
  resourcePolicy?: PodResourcePolicy;
  problem?: VpaProblem;
  selector?: LabelSelector;
  pods: Pod[];
}

const vpaId = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;

/** Why a VPA is not used: another one controls its workload (the older one, or at the same second the first name). */
function notControlling(vpa: VerticalPodAutoscaler, owner: VerticalPodAutoscaler): string {
  const { kind, name } = vpa.spec.targetRef;
  const which = owner.metadata.creationTimestamp === vpa.metadata.creationTimestamp ? `VPA ${owner.metadata.name} (created in the same second; the first name wins)` : `the older VPA ${owner.metadata.name}`;
  return `${kind}/${name} is already handled by ${which}`;
}

export class RecommenderLoop implements LoopComponent {
  readonly kind = 'loop' as const;
  readonly name = 'recommender' as const;
  private readonly log: Logger;
  private readonly kube: RecommenderKube;
  private readonly source: MetricsSource;
  private vpaCache: WatchCache<KubernetesObject> | undefined;
  private podCache: WatchCache<KubernetesObject> | undefined;
  private aggregates: VpaAggregates;
  /** The strategy behind the status; undefined for upstream's algorithm (`--recommender-strategy vpa`). */
  private readonly strategy: Strategy | undefined;
  private feed: UsageFeed | undefined;
  private bootstrapped = false;
  private seenOoms = new Set<string>();
  private schedule: CheckpointSchedule;
  /** VPAs created after the feed read their namespace, waiting for their history (decision 0162). */
  private backfillPlan = new BackfillPlan();
  /** Gone pods have been attributed for the bootstrap window. */
  private attributed = false;
  /** The views of the last cycle (for the checkpoint flush at shutdown). */
  private lastViews: VpaView[] = [];
  /** VPAs whose target failed to resolve, read again only after a back-off. */
  private readonly targetBackoff = new TargetBackoff();
  /** `vpaId\0message` of refused statuses already reported by an Event. */
  private reportedRefusals = new Set<string>();
  private readonly writer: RecommenderWriter;
  /** Warnings that would come every cycle (a malformed VPA): once per cause, then rate-limited. */
  private readonly repeated: RepeatedWarnings;
  /** The recommender's write and attribution counters. */
  readonly own: RecommenderMetrics;
  /** The last sync report (for tests and logs). */
  lastSync: SyncReport | undefined;
  /** `--memory-budget`, or the container's memory limit; undefined: none (decision 0225). */
  readonly memoryBudget: number | undefined;

  constructor(
    private readonly config: RunConfig,
    private readonly kubeConfig: KubeConfig,
    private readonly metrics: ControllerMetrics,
    logger: Logger,
    deps: RecommenderDeps = {},
    private readonly clock: Clock = systemClock,
  ) {
    this.log = logger;
    this.repeated = new RepeatedWarnings(logger);
    this.strategy = configuredStrategy(config);
    this.aggregates = new VpaAggregates(defaultModelConfig(), this.strategy);
    this.kube = new RecommenderKube(kubeConfig);
    this.schedule = new CheckpointSchedule(config.checkpointInterval, config.checkpointGcInterval);
    this.own = new RecommenderMetrics(metrics.registry);
    this.writer = new RecommenderWriter({ metrics: this.own, logger: logger.child({ part: 'writes' }), clock, ...(deps.sleep ? { sleep: deps.sleep } : {}), ...(deps.random ? { random: deps.random } : {}) });
    this.memoryBudget = config.memoryBudget ?? cgroupMemoryLimit();
    this.own.memoryBudget.set(this.memoryBudget ?? 0);
    this.source = deps.source ?? new PrometheusMetricsSource(new PrometheusQueryClient(prometheusConnection(config), logger, metrics.prometheus.observer()), prometheusQueryConfig(config), logger);
  }

  /** The cached VPAs (possibly malformed: validated before use). */
  private vpas(): VerticalPodAutoscaler[] {
    return (this.vpaCache?.list() ?? []) as unknown as VerticalPodAutoscaler[];
  }

  private handled(vpa: VerticalPodAutoscaler): boolean {
    return namespaceSelected(vpa.metadata.namespace ?? '', this.config) && handlesRecommenders(vpa.spec?.recommenders, this.config);
  }

  async activate(): Promise<void> {
    this.vpaCache = new WatchCache<KubernetesObject>({ kubeConfig: this.kubeConfig, resource: VPA_RESOURCE, logger: this.log });
    this.podCache = new WatchCache<KubernetesObject>({ kubeConfig: this.kubeConfig, resource: { group: '', version: 'v1', plural: 'pods' }, logger: this.log });
    const caches = [this.vpaCache, this.podCache];
    await Promise.all(caches.map((c) => c.start()));
    await Promise.all(caches.map((c) => c.synced()));
    this.aggregates = new VpaAggregates(defaultModelConfig(), this.strategy);
    this.bootstrapped = false;
    this.attributed = false;
    this.backfillPlan = new BackfillPlan();
    this.lastViews = [];
    this.reportedRefusals = new Set();
    this.schedule = new CheckpointSchedule(this.config.checkpointInterval, this.config.checkpointGcInterval);
    this.modelsResumed = false;
    const restoredUntil = await this.restoreCheckpoints();
    this.feed = undefined;
    this.pendingResume = restoredUntil;
  }

  /** The oldest `lastSampleStart` restored (and model state time with a strategy), or undefined when nothing was restored. */
  private pendingResume: number | undefined;
  /** With a strategy: every restored checkpoint brought a model state that restored. */
  private modelsResumed = false;

  /** Loads every checkpoint of a handled VPA; a malformed one is logged and skipped. */
  private async restoreCheckpoints(): Promise<number | undefined> {
    const handled = new Set(this.vpas().filter((v) => this.handled(v)).map((v) => vpaId(v.metadata.namespace, v.metadata.name)));
    let oldest: number | undefined;
    let restored = 0;
    let modelStates = 0;
    let allModels = true;
    for (const c of await this.kube.listCheckpoints()) {
      const id = vpaId(c.metadata.namespace, c.spec?.vpaObjectName ?? '');
      const container = c.spec?.containerName;
      if (!handled.has(id) || container === undefined) continue;
      try {
        const created = typeof c.metadata['creationTimestamp'] === 'string' ? parseRfc3339(c.metadata['creationTimestamp']) : undefined;
        const state = loadAggregateCheckpoint(defaultModelConfig(), c.status, created);
        const model = this.restoreModel(c.metadata, `${c.metadata.namespace}/${c.metadata.name}`);
        if (this.strategy && !model) allModels = false;
        if (model) {
          modelStates++;
          const since = Math.min(model.through.cpu, model.through.memory);
          if (Number.isFinite(since)) oldest = oldest === undefined ? since : Math.min(oldest, since);
        }
        this.aggregates.restore(id, container, state, model);
        // The new leader writes it again once it has new samples, else one interval after its last write.
        const updated = c.status?.lastUpdateTime ? Date.parse(c.status.lastUpdateTime) : Number.NaN;
        if (Number.isFinite(updated)) this.schedule.restored(`${id}/${container}`, updated, state.totalSamplesCount);
        restored++;
        if (state.lastSampleStart !== undefined) oldest = oldest === undefined ? state.lastSampleStart : Math.min(oldest, state.lastSampleStart);
      } catch (err) {
        this.log.warn({ err, checkpoint: `${c.metadata.namespace}/${c.metadata.name}` }, 'checkpoint cannot be loaded; that container starts without it');
      }
    }
    this.modelsResumed = this.strategy !== undefined && restored > 0 && allModels;
    this.log.info({ restored, modelStates, resumeFrom: oldest === undefined ? undefined : new Date(oldest).toISOString(), fullHistory: this.strategy !== undefined && !this.modelsResumed }, 'checkpoints restored');
    return oldest;
  }

  /**
   * The strategy's model restored from the checkpoint's annotation, or undefined (none, or one
   * that does not restore: a warning, and that model is rebuilt from the history).
   */
  private restoreModel(metadata: { [key: string]: unknown }, name: string): { model: UsageModel; through: ModelThrough } | undefined {
    const restore = this.strategy?.restoreModel;
    if (!restore) return undefined;
    const value = (metadata['annotations'] as Record<string, unknown> | undefined)?.[MODEL_STATE_ANNOTATION];
    if (typeof value !== 'string') {
      this.log.warn({ checkpoint: name, annotation: MODEL_STATE_ANNOTATION }, 'checkpoint has no model state; the full history is read to rebuild the model');
      return undefined;
    }
    try {
      const { state, through } = decodeModelState(value);
      return { model: restore.call(this.strategy, state), through };
    } catch (err) {
      this.log.warn({ err, checkpoint: name, annotation: MODEL_STATE_ANNOTATION }, 'model state cannot be restored; the full history is read to rebuild the model');
      return undefined;
    }
  }

  /**
   * The history the first sync reads: `--history`, or back to the oldest restored checkpoint. With
   * a strategy, `--history` unless every restored checkpoint brought its model's state.
   */
  private bootstrapWindow(now: number): number {
    const step = this.config.historyStep;
    if (this.strategy && !this.modelsResumed) return this.config.history;
    // Resume from the oldest checkpoint: only the samples after it are read again (one step of
    // overlap; samples already in a checkpoint are skipped by the aggregates).
    return this.pendingResume === undefined ? this.config.history : Math.min(this.config.history, Math.max(step, now - this.pendingResume + step));
  }

  private createFeed(now: number): UsageFeed {
    const step = this.config.historyStep;
    const historyMs = this.bootstrapWindow(now);
    const namespaces = watchNamespaces(this.config);
    // The bootstrap's garbage is kept in proportion to the model, not to V8's heap limit (decision 0265).
    const heapGrowth = limitHeapGrowth();
    const scrape = this.config.scrapeInterval === undefined ? {} : { scrapeIntervalMs: this.config.scrapeInterval };
    const feed = new UsageFeed(this.source, { historyMs, stepMs: step, maxPointsPerQuery: this.config.maxPointsPerQuery, ...this.budget(), ...scrape, ...(namespaces ? { namespaces } : {}) }, this.log, this.metrics.prometheus);
    this.log.info({ memoryBudget: this.memoryBudget ?? 'none', pointsPerQuery: feed.pointsPerQuery, heapGrowth: heapGrowth ?? 'as node was started' }, 'history reads sized');
    return feed;
  }

  /** The budget and what a new series adds to the model, so reads are sized from the headroom left. */
  private budget(): { memoryBudgetBytes?: number; modelBytesPerSeries?: number } {
    return this.memoryBudget === undefined ? {} : { memoryBudgetBytes: this.memoryBudget, modelBytesPerSeries: modelBytes(this.config.recommenderStrategy, 1) };
  }

  async deactivate(reason?: DeactivateReason): Promise<void> {
    if (reason === 'shutdown' && this.lastViews.length > 0) {
      // Still leader: the Lease is released only after this returns, so no one else writes yet.
      const { written, failed } = await this.metrics.timePhase('recommender', 'checkpoints', () => this.writeCheckpoints(this.lastViews, this.clock(), new AbortController().signal, { all: true }));
      this.log[failed > 0 ? 'warn' : 'info']({ written, failed }, `checkpoints written at shutdown: ${written}${failed > 0 ? ` (${failed} failed; the next leader reads their history again)` : ''}`);
    }
    this.lastViews = [];
    await Promise.all([this.vpaCache?.stop(), this.podCache?.stop()]);
    this.vpaCache = undefined;
    this.podCache = undefined;
    this.feed = undefined;
  }

  async runCycle({ now, signal }: CycleContext): Promise<void> {
    if (!this.vpaCache || !this.podCache) throw new Error('recommender runCycle before activate');
    const views = await this.metrics.timePhase('recommender', 'resolve-targets', () => this.resolveTargets(now));
    // Upstream 1.8's per-VPA memory settings, applied to the VPA's histories from now on.
    for (const v of views) if (!v.problem) this.aggregates.configure(v.id, v.resourcePolicy);
    const cursorOf = (ns: string) => this.feed?.cursor(ns);
    this.backfillPlan.observe(views.map((v) => ({ id: v.id, namespace: v.vpa.metadata.namespace ?? '', ready: !v.problem })), cursorOf);
    if (this.backfillPlan.pendingCount > 0) await this.metrics.timePhase('recommender', 'backfill-history', () => this.backfillNewVpas(views, cursorOf));
    this.own.backfillPending.set(this.backfillPlan.pendingCount);
    // A VPA still waiting for its history gets no samples from the feed: its read covers them later.
    const routes = views
      .filter((v) => !this.backfillPlan.isPending(v.id))
      .flatMap((v) => v.pods.map((p) => ({ namespace: p.metadata.namespace, pod: p.metadata.name, vpaId: v.id, memoryRequests: memoryRequests(p), ...steadySince(p) })));
    this.aggregates.routePods(routes, now);

    // Only useful before the bootstrap's samples arrive: afterwards they have been routed or dropped.
    if (!this.attributed && !this.bootstrapped) await this.attributeGonePods(views, now);
    this.feed ??= this.createFeed(now);
    const progress = (done: number, total: number) => {
      this.own.historyChunks.set({ state: 'done' }, done);
      this.own.historyChunks.set({ state: 'total' }, total);
    };
    const report = await this.metrics.timePhase('recommender', 'fetch-usage', () => this.feed!.sync(now, this.aggregates, progress));
    const histories = this.aggregates.size();
    this.own.histories.set(histories);
    this.own.modelBytes.set(modelBytes(this.config.recommenderStrategy, histories));
    this.lastSync = report;
    if (report.error === undefined && report.failed.length === 0) this.bootstrapped = true;
    const usageProblem = report.error !== undefined ? `Prometheus unavailable: ${report.error instanceof Error ? report.error.message : String(report.error)}` : undefined;
    this.recordPodOoms(views);
    // Histories of VPAs with a problem this cycle are kept (a transient API error loses nothing).
    this.aggregates.prune(now, new Set(views.map((v) => v.id)));

    const series: RecommendationSeries[] = [];
    let writeFailures = 0;
    await this.metrics.timePhase('recommender', 'write-status', async () => {
      for (const v of views) {
        if (signal.aborted) return;
        const states = new Map<string, AggregateContainerState>([...(this.aggregates.byVpa.get(v.id) ?? new Map())].map(([name, t]) => [name, t.state]));
        const rounding = { cpuMillicores: this.config.roundCpuMillicores, memoryBytes: this.config.roundMemoryBytes };
        const computed = v.problem ? undefined : this.strategy ? cappedRecommendation(this.modelEstimates(v, now), states, v.vpa.spec?.resourcePolicy, rounding) : vpaRecommendation(states, v.vpa.spec?.resourcePolicy, rounding);
        const ignored = v.problem ? undefined : ignoredSettings(v.resourcePolicy, this.config.recommenderStrategy);
        const decision = decideVpaStatus({ previous: v.vpa.status, problem: v.problem, podsMatched: v.pods.length, fetchingHistory: !this.bootstrapped || this.backfillPlan.isPending(v.id), computed, ...(usageProblem ? { usageProblem } : {}), ...(ignored ? { ignored } : {}) }, now);
        for (const c of decision.status.recommendation?.containerRecommendations ?? []) series.push(toSeries(v.vpa, c));
        if (!decision.changed) continue;
        // A failed write loses nothing: the cached status still differs, so the next cycle writes again.
        const result = await this.writer.write('status', `VPA ${v.id}`, () => this.kube.patchVpaStatus(v.vpa.metadata.namespace ?? '', v.vpa.metadata.name, decision.status), signal);
        if (result.ok) this.logRecommendationChange(v, decision.status.recommendation);
        if (!result.ok && result.kind !== 'notFound') writeFailures++;
        if (!result.ok && result.kind === 'invalid') await this.reportRefusedStatus(v, now, signal);
      }
    });
    this.lastViews = views;
    if (!signal.aborted) await this.metrics.timePhase('recommender', 'checkpoints', () => this.writeCheckpoints(views, now, signal, { all: false }));
    this.metrics.replaceRecommendations(series);
    this.metrics.trackedVpas.set({ component: 'recommender' }, views.length);
    this.metrics.trackedContainers.set({ component: 'recommender' }, this.aggregates.size());
    if (writeFailures > 0 && writeFailures === views.length) throw new Error(`no VPA status could be written (${writeFailures} failures)`);
  }

  /** One line per VPA whose recommendation was written changed: which container, from what to what. */
  private logRecommendationChange(v: VpaView, written: RecommendedPodResources | undefined): void {
    const change = describeRecommendationChange(v.id, v.vpa.status?.recommendation, written);
    if (!change) return;
    this.log[change.routine ? 'debug' : 'info']({ vpa: v.id, strategy: this.config.recommenderStrategy }, change.message);
  }

  /** The strategy's estimates of a VPA's containers (finite bounds: strategy-estimates.ts). */
  private modelEstimates(v: VpaView, now: number) {
    const models = new Map<string, UsageModel>();
    for (const [name, t] of this.aggregates.byVpa.get(v.id) ?? []) if (t.model) models.set(name, t.model);
    return strategyEstimates(models, now, (container) => ({ memory: Math.max(0, ...v.pods.map((p) => memoryRequest(p, container))) }));
  }

  /**
   * The API refuses this VPA's status (its stored spec fails the CRD's schema): say why in a
   * Warning Event, once per VPA and message per leadership.
   */
  private async reportRefusedStatus(v: VpaView, now: number, signal: AbortSignal): Promise<void> {
    const message = v.problem?.message ?? 'the object fails the API server\'s validation';
    const key = `${v.id}\u0000${message}`;
    if (this.reportedRefusals.has(key)) return;
    const event = statusRefusedEvent(v.vpa, message, now, this.config.leaderIdentity ?? 'tailor');
    const result = await this.writer.write('event', `event on VPA ${v.id}`, () => this.kube.createEvent(event), signal);
    if (result.ok) this.reportedRefusals.add(key);
  }

  /** Each handled VPA with its problem or its selector and pods. */
  private async resolveTargets(now: number): Promise<VpaView[]> {
    const views: VpaView[] = [];
    const present = new Set<string>();
    const handled: { id: string; raw: VerticalPodAutoscaler; validation: VpaValidation }[] = [];
    const invalid = new Set<string>();
    for (const raw of this.vpas()) {
      if (!this.handled(raw)) continue;
      const id = vpaId(raw.metadata.namespace, raw.metadata.name);
      present.add(id);
      handled.push({ id, raw, validation: validateVpa(raw) });
    }
    // One VPA per workload, among the valid ones, by the rule the updater and the webhook follow
    // (decision 0277); the others are neither resolved nor written.
    const owners = controllingVpas(handled.flatMap((h) => (h.validation.ok ? [h.raw] : [])));
    for (const { id, raw, validation } of handled) {
      if (!validation.ok) {
        const message = formatFieldErrors(validation.errors);
        views.push({ id, vpa: raw, problem: { reason: 'InvalidSpec', message }, pods: [] });
        invalid.add(`invalid ${id}: ${message}`);
        this.repeated.say(`invalid ${id}: ${message}`, now, { vpa: id, errors: validation.errors }, `VPA ${id} is malformed; its recommendation is kept, not renewed: ${message}`);
        continue;
      }
      const vpa = validation.vpa;
      const owner = owners.get(workloadKey(targetOf(raw)!));
      if (owner !== undefined && owner !== raw) {
        views.push({ id, vpa: raw, problem: { reason: 'MultipleVPAs', message: notControlling(raw, owner) }, pods: [] });
        continue;
      }
      const key = targetKey(vpa);
      const held = this.targetBackoff.held(id, key, now);
      if (held) {
        views.push({ id, vpa: raw, problem: held.problem, pods: [] });
        continue;
      }
      try {
        const selector = await this.kube.targetSelector(vpa.metadata.namespace ?? '', vpa.spec.targetRef);
        this.targetBackoff.succeeded(id);
        const pods = (this.podCache!.list(vpa.metadata.namespace) as unknown as Pod[]).filter((p) => selectorMatches(selector, p.metadata.labels) && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
        views.push({ id, vpa: raw, selector, pods, ...(vpa.spec.resourcePolicy ? { resourcePolicy: vpa.spec.resourcePolicy } : {}) });
      } catch (err) {
        const unsupported = err instanceof TargetSelectorError || err instanceof SelectorParseError;
        const reason = unsupported ? 'TargetUnsupported' : classificationOf(err).kind === 'notFound' ? 'TargetNotFound' : 'TargetUnreadable';
        const message = err instanceof Error ? err.message : String(err);
        const problem = { reason, message };
        const before = this.targetBackoff.lastFailure(id, key);
        const failure = this.targetBackoff.failed(id, key, problem, now);
        views.push({ id, vpa: raw, problem, pods: [] });
        const retryInS = Math.round((failure.retryAt - now) / 1000);
        // Said once per problem; the reads that fail the same way again are debug lines.
        if (before?.problem.message === message) this.log.debug({ vpa: id, failures: failure.failures, retryInS }, 'VPA target still cannot be resolved');
        else this.log.warn({ err, vpa: id, retryInS }, 'VPA target cannot be resolved; reading it again after a back-off');
      }
    }
    this.targetBackoff.retain(present);
    // A VPA valid again (or gone) is said again at once if it breaks again.
    this.repeated.retain((cause) => invalid.has(cause));
    return views;
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

  /**
   * Routes the pods that are gone but left owner series in the bootstrap window to the VPA of their
   * workload, so their history counts (history-attribution.ts). Retried each cycle until it or the
   * bootstrap succeeds.
   */
  private async attributeGonePods(views: readonly VpaView[], now: number): Promise<void> {
    const targets = views.filter((v) => !v.problem && !this.backfillPlan.isPending(v.id)).map((v) => ({ vpaId: v.id, namespace: v.vpa.metadata.namespace ?? '', kind: v.vpa.spec.targetRef.kind, name: v.vpa.spec.targetRef.name, ...boostWindow(v.vpa) }));
    const namespaces = [...new Set(targets.map((t) => t.namespace))];
    if (namespaces.length === 0) return;
    try {
      const window = this.bootstrapWindow(now);
      const owners = new OwnerIndex(await this.source.owners(namespaces, now, window));
      const current = new Set((this.podCache?.list() ?? []).map((p) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`));
      const routes = attributeGonePods(owners, current, targets);
      // A gone pod's boosted start-up is dropped for its VPA's boost window (decision 0234).
      this.aggregates.routePods(routes.map((r) => goneRoute(r, targets.find((t) => t.vpaId === r.vpaId)?.boostWindowMs, now - window, this.config.historyStep)));
      this.own.attributedPods.inc(routes.length);
      this.attributed = true;
      this.log.info({ pods: routes.length }, 'history of pods already gone attributed to their VPAs through owner series');
    } catch (err) {
      this.log.warn({ err }, 'owner series not readable; the history of pods already gone is attributed next cycle');
    }
  }

  /**
   * Reads the history of the VPAs created after the feed read their namespace, at most
   * `--history-backfill-vpas` this cycle, one group (one set of queries per namespace) at a time.
   * A failed group is forgotten and retried next cycle.
   */
  private async backfillNewVpas(views: readonly VpaView[], cursorOf: (ns: string) => number | undefined): Promise<void> {
    const byId = new Map(views.map((v) => [v.id, v]));
    const currentPods = new Set((this.podCache?.list() ?? []).map((p) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`));
    // The scrape interval the main feed read from the data, so a backfill does not read it again.
    const options = { historyMs: this.config.history, stepMs: this.config.historyStep, maxPointsPerQuery: this.config.maxPointsPerQuery, ...this.budget(), scrapeIntervalMs: this.feed?.scrapeIntervalMs };
    for (const group of this.backfillPlan.next(this.config.historyBackfillVpas, cursorOf)) {
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
        const result = await backfillHistory(this.source, group, targets, currentPods, this.aggregates, options, this.log, this.metrics.prometheus);
        this.backfillPlan.done(group.vpaIds);
        this.own.backfills.inc({ outcome: 'ok' }, group.vpaIds.length);
        this.own.attributedPods.inc(result.gonePods);
        this.log.info({ ...log, pods: result.pods, gonePods: result.gonePods, cpuSamples: result.report.cpuSamples, memorySamples: result.report.memorySamples }, 'history of VPAs created since start-up read from Prometheus');
      } catch (err) {
        for (const id of group.vpaIds) this.aggregates.forget(id);
        this.own.backfills.inc({ outcome: 'failed' }, group.vpaIds.length);
        this.log.warn({ ...log, err }, 'history of new VPAs not read; retried next cycle');
      }
    }
  }

  /** The annotation value of a tracked container's model state; undefined without one (logged when saving fails). */
  private saveModel(t: TrackedContainer, id: string): string | undefined {
    if (!this.strategy?.saveModel || !t.model || !t.modelThrough) return undefined;
    try {
      return encodeModelState(this.strategy.saveModel(t.model), t.modelThrough);
    } catch (err) {
      this.log.warn({ err, container: id }, 'model state not saved; a restart reads the full history');
      return undefined;
    }
  }

  /**
   * Writes the checkpoints that are due (with `all`, at shutdown: all with samples since their last write) per handled VPA x
   * container with samples; deletes orphans when the sweep is due.
   */
  private async writeCheckpoints(views: readonly VpaView[], now: number, signal: AbortSignal, o: { all: boolean }): Promise<{ written: number; failed: number }> {
    const live = new Set<string>();
    let written = 0;
    let failed = 0;
    for (const v of views) {
      if (v.problem) continue;
      for (const [container, t] of this.aggregates.byVpa.get(v.id) ?? []) {
        if (t.state.totalSamplesCount === 0) continue;
        const id = `${v.id}/${container}`;
        live.add(id);
        const samples = t.state.totalSamplesCount;
        if (signal.aborted || !(o.all ? this.schedule.changed(id, samples) : this.schedule.due(id, now, samples))) continue;
        const ns = v.vpa.metadata.namespace ?? '';
        const checkpoint = buildCheckpoint(ns, v.vpa.metadata.name, container, saveAggregateCheckpoint(t.state, now));
        const modelState = this.saveModel(t, id);
        if (modelState !== undefined) checkpoint.metadata['annotations'] = { [MODEL_STATE_ANNOTATION]: modelState };
        const result = await this.writer.write('checkpoint', `checkpoint ${ns}/${checkpointName(v.vpa.metadata.name, container)}`, () => this.kube.applyCheckpoint(checkpoint), signal);
        if (result.ok) {
          this.schedule.wrote(id, now, samples);
          written++;
        } else failed++;
      }
    }
    const done = { written, failed };
    if (written + failed > 0) this.log.debug(done, 'checkpoints written');
    if (o.all) return done;
    this.schedule.retain(live);
    if (signal.aborted || !this.schedule.gcDue(now)) return done;
    const existing = new Set(this.vpas().map((v) => vpaId(v.metadata.namespace, v.metadata.name)));
    let orphans: Array<{ namespace: string; name: string }>;
    try {
      orphans = orphanCheckpoints(await this.kube.listCheckpoints(), existing);
    } catch (err) {
      this.log.error({ err }, 'checkpoints not listed; orphans are collected next cycle');
      return done;
    }
    let left = 0;
    for (const orphan of orphans) {
      const result = await this.writer.write('checkpoint_delete', `checkpoint ${orphan.namespace}/${orphan.name}`, () => this.kube.deleteCheckpoint(orphan.namespace, orphan.name), signal);
      if (result.ok) this.log.info({ checkpoint: `${orphan.namespace}/${orphan.name}` }, 'orphaned checkpoint deleted');
      else if (result.kind !== 'notFound') left++;
    }
    if (left === 0) this.schedule.sweptAt(now);
    return done;
  }
}

function toSeries(vpa: VerticalPodAutoscaler, c: { containerName: string; target: Record<string, string | undefined>; lowerBound?: Record<string, string | undefined>; upperBound?: Record<string, string | undefined>; uncappedTarget?: Record<string, string | undefined> }): RecommendationSeries {
  const amounts = (list: Record<string, string | undefined> | undefined) => (list ? resourceAmounts(list) : undefined);
  const bounds: RecommendationSeries['bounds'] = {};
  for (const bound of ['target', 'lowerBound', 'upperBound', 'uncappedTarget'] as const) {
    const a = amounts(c[bound]);
    if (a) bounds[bound] = a;
  }
  return { namespace: vpa.metadata.namespace ?? '', vpa: vpa.metadata.name, targetKind: vpa.spec.targetRef.kind, targetName: vpa.spec.targetRef.name, container: c.containerName, bounds };
}

/** Each container's memory request (bytes). */
function memoryRequests(pod: PodLike): Map<string, number> {
  return new Map((pod.spec?.containers ?? []).map((c) => [c.name, memoryRequest(pod, c.name)]));
}

function resourceAmounts(list: Record<string, string | undefined>): { cpu?: number; memory?: number } {
  return resourceListToAmounts(list as { cpu?: string; memory?: string });
}

/** The {@link ComponentFactory} registered as `recommender`. */
export function createRecommenderComponent(ctx: ComponentContext, deps: RecommenderDeps = {}): RecommenderLoop {
  return new RecommenderLoop(ctx.config, ctx.kubeConfig, ctx.metrics, ctx.logger, deps, ctx.clock);
}
