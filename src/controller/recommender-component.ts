/**
 * `tailor run --components recommender`: the recommender as a loop component of the controller
 * runtime (leader election, schedule, health and /metrics come from there, docs/controller.md).
 * Maps the run configuration to one {@link RecommenderLoop}: Prometheus at --prometheus-url, the
 * strategy of --recommender-strategy, the VPAs and namespaces selected, the memory budget. On
 * gaining leadership the loop starts its watches and restores the checkpoints; each cycle runs it
 * at the tick's time; on losing leadership it stops (after a last checkpoint write on a graceful
 * shutdown, decision 0287).
 */
import type { ComponentContext, DeactivateReason, LoopComponent } from './component.ts';
import { handlesRecommenders, namespaceSelected, watchNamespaces } from './vpa-selection.ts';
import type { Sleep } from '../kube/clock.ts';
import type { MetricsSource } from '../metrics/metrics-source.ts';
import type { SyncReport } from '../metrics/usage-feed.ts';
import { prometheusConnection, prometheusQueryConfig } from '../metrics/prometheus-options.ts';
import { PrometheusMetricsSource } from '../metrics/prometheus-source.ts';
import { PrometheusQueryClient } from '../metrics/query-client.ts';
import { cgroupMemoryLimit } from '../observability/cgroup-memory.ts';
import { configuredStrategy } from '../recommender/configured-strategy.ts';
import { RecommenderLoop } from '../recommender/recommender-loop.ts';
import { RecommenderMetrics } from '../recommender/recommender-metrics.ts';

/** What tests may replace. */
export interface RecommenderDeps {
  /** The usage source (default: Prometheus from the configuration). */
  source?: MetricsSource;
  /** Waits between write retries (default: timers). */
  sleep?: Sleep;
  /** Backoff jitter source (default Math.random). */
  random?: () => number;
}

/** The recommender component: activate and deactivate always there; the loop and its last sync report for tests and logs. */
export interface RecommenderComponent extends LoopComponent {
  activate(signal?: AbortSignal): Promise<void>;
  deactivate(reason?: DeactivateReason): Promise<void>;
  readonly loop: RecommenderLoop;
  readonly lastSync: SyncReport | undefined;
}

/** The usage source of the configuration: Prometheus at --prometheus-url. */
function configuredSource(ctx: ComponentContext): MetricsSource {
  const { config, logger } = ctx;
  return new PrometheusMetricsSource(
    new PrometheusQueryClient(prometheusConnection(config), logger, ctx.metrics.prometheus.observer()),
    prometheusQueryConfig(config),
    logger,
  );
}

/** The {@link ComponentFactory} registered as `recommender`. */
export function createRecommenderComponent(ctx: ComponentContext, deps: RecommenderDeps = {}): RecommenderComponent {
  const { config, logger } = ctx;
  const strategy = configuredStrategy(config);
  const metrics = new RecommenderMetrics(ctx.metrics.registry);
  const loop = new RecommenderLoop({
    config,
    kubeConfig: ctx.kubeConfig,
    source: deps.source ?? configuredSource(ctx),
    logger,
    metrics,
    runMetrics: ctx.metrics,
    strategy,
    handles: (vpa) => namespaceSelected(vpa.metadata.namespace ?? '', config) && handlesRecommenders(vpa.spec?.recommenders, config),
    namespaces: watchNamespaces(config),
    instance: config.leaderIdentity ?? 'tailor',
    memoryBudget: config.memoryBudget ?? cgroupMemoryLimit(),
    clock: ctx.clock,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
    ...(deps.random ? { random: deps.random } : {}),
  });
  return {
    kind: 'loop',
    name: 'recommender',
    activate: () => loop.activate(),
    runCycle: ({ now, signal }) => loop.runOnce(now, signal),
    deactivate: (reason) => loop.deactivate(reason === 'shutdown'),
    loop,
    get lastSync() {
      return loop.lastSync;
    },
  };
}
