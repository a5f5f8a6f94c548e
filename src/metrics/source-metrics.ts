/**
 * prom-client metrics of the usage source: traffic to Prometheus and the quality of what came back.
 * Created in a registry passed in (the controller's, or a throwaway one in tests and the CLI).
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { QueryObserver } from './query-client.ts';
import type { DataQuality } from './metrics-source.ts';

export class SourceMetrics {
  readonly queries: Counter<'kind' | 'outcome'>;
  readonly queryDuration: Histogram<'kind'>;
  readonly receivedBytes: Counter;
  readonly badSamples: Counter<'reason'>;
  readonly gapSteps: Counter;
  readonly warnings: Counter;
  readonly failedBatches: Counter;
  readonly sparseSeries: Counter;
  readonly samples: Counter<'resource'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.queries = new Counter({
      name: 'tailor_prometheus_queries_total',
      help: 'PromQL queries by kind and outcome (ok or the error class).',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.queryDuration = new Histogram({
      name: 'tailor_prometheus_query_duration_seconds',
      help: 'Wall time of PromQL queries, retries included.',
      labelNames: ['kind'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.receivedBytes = new Counter({ name: 'tailor_prometheus_received_bytes_total', help: 'Bytes of JSON received from Prometheus.', registers });
    this.badSamples = new Counter({
      name: 'tailor_usage_bad_samples_total',
      help: 'Samples dropped, by reason (non_finite: NaN or Inf).',
      labelNames: ['reason'],
      registers,
    });
    this.gapSteps = new Counter({ name: 'tailor_usage_gap_steps_total', help: 'Evaluation steps missing inside container series.', registers });
    this.warnings = new Counter({
      name: 'tailor_prometheus_warnings_total',
      help: 'Warnings attached to Prometheus answers (e.g. partial responses).',
      registers,
    });
    this.failedBatches = new Counter({
      name: 'tailor_usage_failed_batches_total',
      help: 'Namespace batches whose fetch failed (retried next cycle).',
      registers,
    });
    this.sparseSeries = new Counter({
      name: 'tailor_usage_sparse_series_total',
      help: 'Container series with too few samples in a history bootstrap.',
      registers,
    });
    this.samples = new Counter({ name: 'tailor_usage_samples_total', help: 'Usage samples ingested, by resource.', labelNames: ['resource'], registers });
  }

  /** An observer for {@link PrometheusQueryClient}. */
  observer(): QueryObserver {
    return ({ kind, durationMs, bytes, error }) => {
      this.queries.inc({ kind, outcome: error ? error.name : 'ok' });
      this.queryDuration.observe({ kind }, durationMs / 1000);
      this.receivedBytes.inc(bytes);
    };
  }

  /** Counts a quality record. */
  recordQuality(q: DataQuality): void {
    if (q.nonFinite > 0) this.badSamples.inc({ reason: 'non_finite' }, q.nonFinite);
    if (q.gapSteps > 0) this.gapSteps.inc(q.gapSteps);
    if (q.warnings.length > 0) this.warnings.inc(q.warnings.length);
  }
}
