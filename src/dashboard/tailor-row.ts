/**
 * The row on Tailor itself: its loops' latency, outcomes and last success, its Prometheus queries,
 * leadership, admission webhook, tracked objects and the recommender's writes.
 */
import { quantile, RI } from './dashboard-promql.ts';
import type { Layout } from './panel-layout.ts';

/** Tailor's own health: loops, Prometheus, leadership, admission and writes. */
export function tailorRow(l: Layout): void {
  l.row('Tailor: loops, Prometheus, leadership, admission');
  l.panel('timeseries', 'Loop cycle latency', 'p50 and p95 of whole loop cycles (recommender, updater), and p95 of their phases.', 8, 8, 's', [
    { expr: quantile(0.95, 'tailor_loop_phase_duration_seconds', 'loop', '{phase="cycle"}'), legend: 'p95 {{loop}}' },
    { expr: quantile(0.5, 'tailor_loop_phase_duration_seconds', 'loop', '{phase="cycle"}'), legend: 'p50 {{loop}}' },
    { expr: quantile(0.95, 'tailor_loop_phase_duration_seconds', 'loop, phase', '{phase!="cycle"}'), legend: 'p95 {{loop}} {{phase}}' },
  ]);
  l.panel(
    'timeseries',
    'Loop cycles and errors',
    'Loop cycles by outcome (ok, error) per rate interval; anything but ok is a failed cycle, retried at the next tick.',
    8,
    8,
    'short',
    [{ expr: `sum by (loop, outcome) (increase(tailor_loop_cycles_total[${RI}]))`, legend: '{{loop}} {{outcome}}' }],
  );
  l.panel(
    'timeseries',
    'Time since the last successful cycle',
    'Seconds since each loop last ended a cycle without error; grows without bound while a loop fails or has stopped.',
    8,
    8,
    's',
    [{ expr: 'time() - max by (loop) (tailor_loop_last_success_timestamp_seconds)', legend: '{{loop}}' }],
  );
  l.panel(
    'timeseries',
    'Prometheus queries by outcome',
    'PromQL queries of the recommender by kind and outcome: ok, or the error class (timeout, unavailable, bad_data, ...); failed namespace batches are retried next cycle.',
    8,
    8,
    'short',
    [
      { expr: `sum by (kind, outcome) (increase(tailor_prometheus_queries_total[${RI}]))`, legend: '{{kind}} {{outcome}}' },
      { expr: `sum(increase(tailor_usage_failed_batches_total[${RI}]))`, legend: 'failed batches' },
    ],
  );
  l.panel('timeseries', 'Prometheus query latency', "p95 wall time of the recommender's PromQL queries (retries included), by kind.", 8, 8, 's', [
    { expr: quantile(0.95, 'tailor_prometheus_query_duration_seconds', 'kind'), legend: 'p95 {{kind}}' },
  ]);
  l.panel(
    'timeseries',
    'Leader',
    'Per replica and Lease: 1 while the replica holds the Lease and runs the loops; exactly one replica per Lease should be 1.',
    8,
    8,
    'none',
    [{ expr: 'max by (instance, lease) (tailor_leader)', legend: '{{lease}} {{instance}}' }],
  );
  l.panel(
    'timeseries',
    'Admission webhook requests',
    'Admission reviews answered per rate interval, by webhook and outcome (patched, no-vpa, mode-off, ... for pods; allowed, denied for VPAs).',
    8,
    8,
    'short',
    [{ expr: `sum by (webhook, outcome) (increase(tailor_admission_reviews_total[${RI}]))`, legend: '{{webhook}} {{outcome}}' }],
  );
  l.panel(
    'timeseries',
    'Admission webhook latency',
    'p99 time to answer an admission review, by webhook (the API server waits for it on every pod creation).',
    8,
    8,
    's',
    [{ expr: quantile(0.99, 'tailor_admission_review_duration_seconds', 'webhook'), legend: 'p99 {{webhook}}' }],
  );
  l.panel('timeseries', 'Tracked VPAs and containers', 'VPA objects and VPA x container aggregates each component handles.', 8, 8, 'short', [
    { expr: 'max by (component) (tailor_tracked_vpas)', legend: 'VPAs {{component}}' },
    { expr: 'max by (component) (tailor_tracked_containers)', legend: 'containers {{component}}' },
  ]);

  l.panel(
    'timeseries',
    'Recommender writes',
    'Writes of the recommender (VPA status, checkpoints, deletions, events) per rate interval by object and final outcome (ok, or the error kind after the retries; deferred while throttled), and the retries by error kind.',
    8,
    8,
    'short',
    [
      { expr: `sum by (object, outcome) (increase(tailor_recommender_writes_total[${RI}]))`, legend: '{{object}} {{outcome}}' },
      { expr: `sum by (object, reason) (increase(tailor_recommender_write_retries_total[${RI}]))`, legend: 'retry {{object}} {{reason}}' },
    ],
  );
}
