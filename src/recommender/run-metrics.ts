/**
 * The metrics of `tailor run` the recommender reports to besides its own (recommender-metrics.ts):
 * phase durations, the tracked VPAs and containers, the recommendation series and the Prometheus
 * traffic. The controller's ControllerMetrics is one.
 */
import type { Gauge } from 'prom-client';
import type { SourceMetrics } from '../metrics/source-metrics.ts';
import type { RecommendationSeries } from './recommendation-series.ts';

/** The run's shared metrics, as the recommender uses them. */
export interface RunMetrics {
  /** Prometheus traffic and data quality. */
  prometheus: SourceMetrics;
  trackedVpas: Gauge<'component'>;
  trackedContainers: Gauge<'component'>;
  /** Runs `fn` and records its duration as phase `phase` of loop `loop`. */
  timePhase<T>(loop: string, phase: string, fn: () => Promise<T>): Promise<T>;
  /** Replaces every recommendation series with `all`. */
  replaceRecommendations(all: readonly RecommendationSeries[]): void;
}
