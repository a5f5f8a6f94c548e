/**
 * The recommender's VPA statuses, each cycle: per VPA the recommendation from its histories (the
 * strategy's estimates, capped: vpa-recommendation.ts, strategy-estimates.ts; or upstream's
 * algorithm), the status decided (vpa-status-decision.ts) and, when it changed, written (retried
 * by error class: recommender-writes.ts). A written change is logged; a status the API refuses
 * (the VPA's stored spec fails the CRD's schema) is told in a Warning Event, once per VPA and
 * message per leadership.
 */
import type { RecommendedPodResources } from '../api/vpa.ts';
import type { AggregateContainerState } from '../model/aggregate-container-state.ts';
import type { Strategy, UsageModel } from '../model/types.ts';
import type { Logger } from '../observability/logger.ts';
import { ignoredSettings } from './ignored-settings.ts';
import { memoryRequest } from './pod-oom-kills.ts';
import { describeRecommendationChange } from './recommendation-change.ts';
import { recommendationSeries, type RecommendationSeries } from './recommendation-series.ts';
import type { RecommenderKube } from './recommender-kube.ts';
import type { RecommenderConfig } from './recommender-options.ts';
import type { RecommenderWriter } from './recommender-writes.ts';
import { strategyEstimates } from './strategy-estimates.ts';
import type { VpaAggregates } from './vpa-aggregates.ts';
import { statusRefusedEvent } from './vpa-events.ts';
import { cappedRecommendation, vpaRecommendation } from './vpa-recommendation.ts';
import { decideVpaStatus } from './vpa-status-decision.ts';
import type { VpaView } from './vpa-views.ts';

/** What a cycle knows about its history reads, for the statuses' conditions. */
export interface StatusCycle {
  /** The VPA's history is still being read (bootstrap or backfill): its status says FetchingHistory. */
  fetchingHistory: (vpaId: string) => boolean;
  /** Prometheus could not be read this cycle: why. */
  usageProblem: string | undefined;
}

/** Decides and writes the handled VPAs' statuses; holds the refusals already told (per leadership). */
export class RecommenderStatuses {
  /** `vpaId\0message` of refused statuses already reported by an Event. */
  private reportedRefusals = new Set<string>();

  constructor(
    private readonly deps: {
      kube: RecommenderKube;
      writer: RecommenderWriter;
      log: Logger;
      /** The recommender's rows of the run configuration (rounding, strategy name). */
      config: RecommenderConfig;
      /** The strategy behind the status; undefined for upstream's algorithm. */
      strategy: Strategy | undefined;
      /** Who reports the Events (the leader's identity). */
      instance: string;
    },
  ) {}

  /** Forgets the refusals told (a new leadership tells them again). */
  reset(): void {
    this.reportedRefusals = new Set();
  }

  /**
   * Decides each view's status from `aggregates` and writes the changed ones, until `signal` aborts.
   * Gives the recommendation series of every status decided and the failed writes (a VPA gone
   * meanwhile not counted).
   */
  async write(
    views: readonly VpaView[],
    aggregates: VpaAggregates,
    now: number,
    signal: AbortSignal,
    cycle: StatusCycle,
  ): Promise<{ series: RecommendationSeries[]; writeFailures: number }> {
    const { config, strategy } = this.deps;
    const { usageProblem } = cycle;
    const series: RecommendationSeries[] = [];
    let writeFailures = 0;
    for (const v of views) {
      if (signal.aborted) return { series, writeFailures };
      const states = new Map<string, AggregateContainerState>([...(aggregates.byVpa.get(v.id) ?? new Map())].map(([name, t]) => [name, t.state]));
      const rounding = { cpuMillicores: config.roundCpuMillicores, memoryBytes: config.roundMemoryBytes };
      const computed = v.problem
        ? undefined
        : strategy
          ? cappedRecommendation(this.modelEstimates(v, aggregates, now), states, v.vpa.spec?.resourcePolicy, rounding)
          : vpaRecommendation(states, v.vpa.spec?.resourcePolicy, rounding);
      const ignored = v.problem ? undefined : ignoredSettings(v.resourcePolicy, config.recommenderStrategy);
      const decision = decideVpaStatus(
        {
          previous: v.vpa.status,
          problem: v.problem,
          podsMatched: v.pods.length,
          fetchingHistory: cycle.fetchingHistory(v.id),
          computed,
          ...(usageProblem ? { usageProblem } : {}),
          ...(ignored ? { ignored } : {}),
        },
        now,
      );
      for (const c of decision.status.recommendation?.containerRecommendations ?? []) series.push(recommendationSeries(v.vpa, c));
      if (!decision.changed) continue;
      // A failed write loses nothing: the cached status still differs, so the next cycle writes again.
      const result = await this.deps.writer.write(
        'status',
        `VPA ${v.id}`,
        () => this.deps.kube.patchVpaStatus(v.vpa.metadata.namespace ?? '', v.vpa.metadata.name, decision.status),
        signal,
      );
      if (result.ok) this.logRecommendationChange(v, decision.status.recommendation);
      if (!result.ok && result.kind !== 'notFound') writeFailures++;
      if (!result.ok && result.kind === 'invalid') await this.reportRefusedStatus(v, now, signal);
    }
    return { series, writeFailures };
  }

  /** One line per VPA whose recommendation was written changed: which container, from what to what. */
  private logRecommendationChange(v: VpaView, written: RecommendedPodResources | undefined): void {
    const change = describeRecommendationChange(v.id, v.vpa.status?.recommendation, written);
    if (!change) return;
    this.deps.log[change.routine ? 'debug' : 'info']({ vpa: v.id, strategy: this.deps.config.recommenderStrategy }, change.message);
  }

  /** The strategy's estimates of a VPA's containers (finite bounds: strategy-estimates.ts). */
  private modelEstimates(v: VpaView, aggregates: VpaAggregates, now: number) {
    const models = new Map<string, UsageModel>();
    for (const [name, t] of aggregates.byVpa.get(v.id) ?? []) if (t.model) models.set(name, t.model);
    return strategyEstimates(models, now, (container) => ({ memory: Math.max(0, ...v.pods.map((p) => memoryRequest(p, container))) }));
  }

  /**
   * The API refuses this VPA's status (its stored spec fails the CRD's schema): say why in a
   * Warning Event, once per VPA and message per leadership.
   */
  private async reportRefusedStatus(v: VpaView, now: number, signal: AbortSignal): Promise<void> {
    const message = v.problem?.message ?? "the object fails the API server's validation";
    const key = `${v.id}\u0000${message}`;
    if (this.reportedRefusals.has(key)) return;
    const event = statusRefusedEvent(v.vpa, message, now, this.deps.instance);
    const result = await this.deps.writer.write('event', `event on VPA ${v.id}`, () => this.deps.kube.createEvent(event), signal);
    if (result.ok) this.reportedRefusals.add(key);
  }
}
