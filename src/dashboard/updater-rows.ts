/**
 * The updater's rows: its decisions, resizes, evictions and fallbacks, the latency from a
 * recommendation to the resize applied, its memory usage feed and the resources left to an HPA;
 * then the start-up CPU boosts given and given back.
 */
import { quantile, RI } from './dashboard-promql.ts';
import type { Layout } from './panel-layout.ts';

/** The rows of what the updater did and how fast, and of the start-up CPU boost. */
export function updaterRows(l: Layout): void {
  l.row('Updater: actions and outcomes');
  l.panel('timeseries', 'Updater actions', 'Decisions of the updater loops by action and reason (Skip and Wait included), per rate interval.', 8, 9, 'short', [
    { expr: `sum by (action, reason) (increase(tailor_updater_decisions_total[${RI}]))`, legend: '{{action}} {{reason}}' },
  ]);
  l.panel(
    'timeseries',
    'Resizes by path and outcome',
    'Resizes sent: path in-place (no restart) or restart (resizePolicy RestartContainer), by outcome.',
    8,
    9,
    'short',
    [{ expr: `sum by (path, outcome) (increase(tailor_updater_resizes_total[${RI}]))`, legend: '{{path}} {{outcome}}' }],
  );
  l.panel(
    'timeseries',
    'Evictions and fallbacks',
    'Evictions asked for by outcome (blocked: a PodDisruptionBudget refused), and the in-place resizes that fell back to eviction, by cause.',
    8,
    9,
    'short',
    [
      { expr: `sum by (outcome) (increase(tailor_updater_evictions_total[${RI}]))`, legend: 'eviction {{outcome}}' },
      { expr: `sum by (cause) (increase(tailor_updater_fallbacks_total[${RI}]))`, legend: 'fallback {{cause}}' },
    ],
  );
  l.panel(
    'timeseries',
    'Recommendation to applied',
    'p50 and p95 seconds from a recommendation to the in-place resize seen completed, by path (since="recommendation": from the VPA status write; "first-seen": from when the updater first saw the difference, when later).',
    8,
    8,
    's',
    [
      { expr: quantile(0.5, 'tailor_updater_recommendation_to_applied_seconds', 'path'), legend: 'p50 {{path}}' },
      { expr: quantile(0.95, 'tailor_updater_recommendation_to_applied_seconds', 'path'), legend: 'p95 {{path}}' },
    ],
  );
  l.panel(
    'timeseries',
    'Updater memory usage feed',
    "Whether the updater's memory safety is fed: usage available (1) or not (0: no memory limit is lowered and the pressure guard is off), and its Prometheus reads per rate interval by outcome (ok, failed, disabled without --prometheus-url).",
    8,
    8,
    'short',
    [
      { expr: 'max(tailor_updater_usage_available)', legend: 'usage available' },
      { expr: `sum by (outcome) (increase(tailor_updater_usage_reads_total[${RI}]))`, legend: 'reads {{outcome}}' },
    ],
  );
  l.panel(
    'timeseries',
    'Resources left to an HPA',
    'VPAs whose cpu or memory the updater leaves alone because an HPA scales the workload on it (each such VPA carries the HpaConflict condition naming the HPA).',
    8,
    8,
    'short',
    [{ expr: 'max by (resource) (tailor_updater_hpa_excluded_resources)', legend: '{{resource}}' }],
  );

  l.row('Start-up CPU boost');
  l.panel(
    'timeseries',
    'Start-up CPU boost',
    "Pods the webhook admitted with a start-up CPU boost (startupBoost or tailor.dev/startup-cpu-boost on their VPA), pods still in their boost at the updater's last loop, and boosts given back in place (StartupBoostEnded) or stuck (StartupBoostStuck), per rate interval.",
    24,
    7,
    'short',
    [
      { expr: `sum(increase(tailor_admission_startup_boosts_total[${RI}]))`, legend: 'boosted at admission' },
      { expr: 'sum(tailor_updater_planned_actions{reason="StartupBoost"}) or vector(0)', legend: 'in their boost' },
      {
        expr: `sum by (reason) (increase(tailor_updater_decisions_total{reason=~"StartupBoostEnded|StartupBoostStuck"}[${RI}])) or label_replace(vector(0), "reason", "StartupBoostEnded", "", "")`,
        legend: '{{reason}}',
      },
    ],
  );
}
