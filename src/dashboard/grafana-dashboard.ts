/**
 * Tailor's Grafana dashboard as code, built with Grafana's own dashboards-as-code library
 * (@grafana/grafana-foundation-sdk: typed builders for the dashboard, rows, variables, panels and
 * Prometheus queries; a build-time dependency only). `npm run dashboard:build` writes it to
 * manifests/monitoring/grafana-dashboard.json (a test keeps that file equal to this). Every query
 * uses the names Tailor exports (src/observability, src/updater, src/admission, src/metrics) and the
 * cAdvisor / kube-state-metrics names of a real cluster (the same kube-sim serves).
 *
 * Variables: datasource, namespace, workload (a VPA's target), container (multi, All), and the
 * prices (text boxes: cpu_hour_price, memory_gib_hour_price, currency; 0 until set). Rows:
 * the workload's usage against requests, limits and the recommendation bounds; estimated savings,
 * in resources and, at the prices, in money a month;
 * the updater's actions and outcomes, its latency from recommendation to applied and its memory
 * usage feed; OOM kills and restarts; Tailor's own loops, Prometheus traffic, leadership,
 * admission webhook and the recommender's writes.
 */
import * as common from '@grafana/grafana-foundation-sdk/common';
import {
  DashboardBuilder,
  DashboardCursorSync,
  DatasourceVariableBuilder,
  QueryVariableBuilder,
  RowBuilder,
  TextBoxVariableBuilder,
  VariableHide,
  VariableRefresh,
  VariableSort,
  type DynamicConfigValue,
} from '@grafana/grafana-foundation-sdk/dashboard';
import { DataqueryBuilder } from '@grafana/grafana-foundation-sdk/prometheus';
import { PanelBuilder as StatPanelBuilder } from '@grafana/grafana-foundation-sdk/stat';
import { PanelBuilder as TimeseriesPanelBuilder } from '@grafana/grafana-foundation-sdk/timeseries';
import { MEMORY_WARNING_THRESHOLDS as WARN } from '../policy/memory-warning-thresholds.ts';
import { workloadPods } from './workload-pods.ts';

/** One query of a panel (Grafana's Prometheus target). */
export interface PanelTarget {
  refId: string;
  expr: string;
  legendFormat: string;
  datasource: { type: 'prometheus'; uid: string };
  range: boolean;
  instant: boolean;
}

/** A panel of the dashboard: a row header, a time series or a stat. */
export interface DashboardPanel {
  id: number;
  type: 'row' | 'timeseries' | 'stat';
  title: string;
  description?: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type: 'prometheus'; uid: string };
  targets?: PanelTarget[];
  fieldConfig?: { defaults: Record<string, unknown>; overrides: unknown[] };
  options?: Record<string, unknown>;
  collapsed?: boolean;
  panels?: DashboardPanel[];
}

/** A template variable. */
export interface DashboardVariable {
  name: string;
  label: string;
  type: 'datasource' | 'query' | 'textbox';
  query: string | { query: string; refId: string; qryType: number };
  definition?: string;
  datasource?: { type: 'prometheus'; uid: string };
  description?: string;
  multi?: boolean;
  includeAll?: boolean;
  refresh?: number;
  sort?: number;
  current?: Record<string, never>;
  options?: never[];
  hide: number;
}

export interface GrafanaDashboard {
  uid: string;
  title: string;
  description: string;
  tags: string[];
  schemaVersion: number;
  version: number;
  editable: boolean;
  graphTooltip: number;
  refresh: string;
  time: { from: string; to: string };
  timezone: string;
  templating: { list: DashboardVariable[] };
  annotations: { list: unknown[] };
  panels: DashboardPanel[];
}

const DS = { type: 'prometheus' as const, uid: '${datasource}' };
const NS = '$namespace';
const WL = '$workload';
const RI = '$__rate_interval';

type Unit = 'cores' | 'bytes' | 's' | 'short' | 'none' | 'percentunit' | 'money';

interface Query {
  expr: string;
  legend: string;
}

function queryVariable(name: string, label: string, definition: string, multi = false): QueryVariableBuilder {
  return new QueryVariableBuilder(name)
    .label(label)
    .datasource(DS)
    .query({ query: definition, refId: 'PrometheusVariableQueryEditor-VariableQuery', qryType: 1 })
    .multi(multi)
    .includeAll(multi)
    .refresh(VariableRefresh.OnTimeRangeChanged)
    .sort(VariableSort.AlphabeticalAsc)
    .hide(VariableHide.DontHide);
}

/** The usage, requests, limits and bounds of the selected workload's containers, for one resource. */
function resourceQueries(resource: 'cpu' | 'memory'): Query[] {
  const pods = workloadPods(NS, WL);
  const usage =
    resource === 'cpu'
      ? `sum by (namespace, pod, container) (rate(container_cpu_usage_seconds_total{namespace="${NS}", container=~"$container"}[${RI}]))`
      : `max by (namespace, pod, container) (container_memory_working_set_bytes{namespace="${NS}", container=~"$container"})`;
  const spec = (metric: string) =>
    `max by (container) (${metric}{namespace="${NS}", container=~"$container", resource="${resource}"} * on (namespace, pod) group_left() ${pods})`;
  const bound = (b: string) =>
    `max by (container) (tailor_vpa_recommendation{namespace="${NS}", target_name="${WL}", container=~"$container", resource="${resource}", bound="${b}"})`;
  return [
    { expr: `max by (container) (${usage} * on (namespace, pod) group_left() ${pods})`, legend: 'usage {{container}} (busiest pod)' },
    { expr: spec('kube_pod_container_resource_requests'), legend: 'request {{container}}' },
    { expr: spec('kube_pod_container_resource_limits'), legend: 'limit {{container}}' },
    { expr: bound('target'), legend: 'target {{container}}' },
    { expr: bound('lowerBound'), legend: 'lower bound {{container}}' },
    { expr: bound('upperBound'), legend: 'upper bound {{container}}' },
  ];
}

/**
 * Requests minus the recommended target, summed over every pod of every VPA-managed container in
 * the namespace, by workload. Worked number: 3 pods requesting 500m with a target of 120m save
 * 3 x (0.5 - 0.12) = 1.14 cores. Negative: the workload needs more than it requests.
 */
function savings(resource: 'cpu' | 'memory'): string {
  const requests = `sum by (namespace, pod, container) (kube_pod_container_resource_requests{namespace="${NS}", resource="${resource}"})`;
  const target = `max by (namespace, workload, container) (label_replace(tailor_vpa_recommendation{namespace="${NS}", resource="${resource}", bound="target"}, "workload", "$1", "target_name", "(.+)"))`;
  return `sum by (workload) (${requests} * on (namespace, pod) group_left(workload) ${workloadPods(NS)} - on (namespace, workload, container) group_left() ${target})`;
}

/** Hours in an average month (8,760 / 12), as src/report/money.ts. */
const HOURS_PER_MONTH = 730;

/** The requests of every pod of every VPA-managed container with a target in the namespace, by workload (the containers `savings` counts). */
function recommendedRequests(resource: 'cpu' | 'memory'): string {
  const requests = `sum by (namespace, pod, container) (kube_pod_container_resource_requests{namespace="${NS}", resource="${resource}"})`;
  const target = `max by (namespace, workload, container) (label_replace(tailor_vpa_recommendation{namespace="${NS}", resource="${resource}", bound="target"}, "workload", "$1", "target_name", "(.+)"))`;
  return `sum by (workload) (${requests} * on (namespace, pod) group_left(workload) ${workloadPods(NS)} and on (namespace, workload, container) ${target})`;
}

/**
 * A month of CPU cores `cpu` and memory bytes `memory` (namespace totals) at the dashboard's
 * prices: (cores x $cpu_hour_price + GiB x $memory_gib_hour_price) x 730 h. Worked number at 0.03
 * and 0.004: 1.14 cores and 0.75 GiB cost (1.14 x 0.03 + 0.75 x 0.004) x 730 = 27.16 a month.
 */
function monthly(cpu: string, memory: string): string {
  return `(sum(${cpu}) * $cpu_hour_price + sum(${memory}) / ${2 ** 30} * $memory_gib_hour_price) * ${HOURS_PER_MONTH}`;
}

/** The monthly money of the requests, of the recommendations (the requests minus the savings) and of the difference, for the namespace. */
function moneyQueries(): Query[] {
  const requests = monthly(recommendedRequests('cpu'), recommendedRequests('memory'));
  return [
    { expr: requests, legend: 'requests' },
    { expr: `${requests} - ${monthly(savings('cpu'), savings('memory'))}`, legend: 'recommendations' },
    { expr: monthly(savings('cpu'), savings('memory')), legend: 'saving (negative: a cost)' },
  ];
}

/** A text box variable for a price or the currency, with its default. */
function priceVariable(name: string, label: string, description: string, value: string): TextBoxVariableBuilder {
  return new TextBoxVariableBuilder(name).label(label).description(description).defaultValue(value).hide(VariableHide.DontHide);
}

function quantile(q: number, metric: string, by: string, selector = ''): string {
  return `histogram_quantile(${q}, sum by (${by}, le) (rate(${metric}_bucket${selector}[${RI}])))`;
}

const UNITS: Record<Unit, string> = { cores: 'suffix: cores', bytes: 'bytes', s: 's', short: 'short', none: 'none', percentunit: 'percentunit', money: 'none' };

/** Places rows and panels left to right, wrapping to a new line when a panel would not fit the 24 columns. */
class Layout {
  private y = 0;
  private x = 0;
  private rowHeight = 0;
  private id = 0;
  constructor(readonly dashboard: DashboardBuilder) {}

  row(title: string): void {
    this.newLine();
    this.dashboard.withRow(new RowBuilder(title).id(++this.id).collapsed(false).gridPos({ x: 0, y: this.y, w: 24, h: 1 }));
    this.y += 1;
  }

  panel(type: 'timeseries' | 'stat', title: string, description: string, w: number, h: number, unit: Unit, queries: Query[], overrides: Override[] = []): void {
    if (this.x + w > 24) this.newLine();
    const panel = type === 'stat' ? statPanel() : timeseriesPanel();
    panel.id(++this.id).title(title).description(description).gridPos({ x: this.x, y: this.y, w, h }).datasource(DS).unit(UNITS[unit]);
    if (unit === 'cores') panel.decimals(3);
    if (unit === 'money') panel.decimals(2);
    queries.forEach((q, i) =>
      panel.withTarget(
        new DataqueryBuilder()
          .refId(String.fromCharCode(65 + i))
          .expr(q.expr)
          .legendFormat(q.legend)
          .datasource(DS)
          .range(),
      ),
    );
    for (const o of overrides) panel.overrideByRegexp(o.regex, o.properties);
    this.dashboard.withPanel(panel);
    this.x += w;
    this.rowHeight = Math.max(this.rowHeight, h);
  }

  private newLine(): void {
    this.y += this.rowHeight;
    this.x = 0;
    this.rowHeight = 0;
  }
}

function timeseriesPanel(): TimeseriesPanelBuilder {
  return new TimeseriesPanelBuilder()
    .drawStyle(common.GraphDrawStyle.Line)
    .lineWidth(1)
    .fillOpacity(0)
    .showPoints(common.VisibilityMode.Never)
    .spanNulls(true)
    .legend(
      new common.VizLegendOptionsBuilder()
        .showLegend(true)
        .displayMode(common.LegendDisplayMode.Table)
        .placement(common.LegendPlacement.Bottom)
        .calcs(['lastNotNull', 'max']),
    )
    .tooltip(new common.VizTooltipOptionsBuilder().mode(common.TooltipDisplayMode.Multi).sort(common.SortOrder.Descending));
}

function statPanel(): StatPanelBuilder {
  return new StatPanelBuilder()
    .reduceOptions(new common.ReduceDataOptionsBuilder().calcs(['lastNotNull']).fields('').values(false))
    .colorMode(common.BigValueColorMode.Value)
    .graphMode(common.BigValueGraphMode.Area)
    .textMode(common.BigValueTextMode.Auto);
}

/** A field override by series name. */
interface Override {
  regex: string;
  properties: DynamicConfigValue[];
}

/** Dashed lines for the bounds, a thicker target, dotted limits: what Grafana draws over the usage. */
function boundStyles(): Override[] {
  return [
    { regex: '^(lower|upper) bound .*', properties: [{ id: 'custom.lineStyle', value: { fill: 'dash', dash: [10, 10] } }] },
    { regex: '^target .*', properties: [{ id: 'custom.lineWidth', value: 2 }] },
    { regex: '^limit .*', properties: [{ id: 'custom.lineStyle', value: { fill: 'dot', dash: [2, 6] } }] },
  ];
}

/** The whole dashboard. */
export function tailorDashboard(): GrafanaDashboard {
  const builder = new DashboardBuilder('Tailor: vertical autoscaling')
    .uid('tailor-overview')
    .description("Usage against requests and Tailor's recommendations, estimated savings, updater actions, OOM kills and the health of Tailor itself.")
    .tags(['tailor', 'vpa', 'kubernetes'])
    .editable()
    .tooltip(DashboardCursorSync.Crosshair)
    .refresh('30s')
    .time({ from: 'now-6h', to: 'now' })
    .timezone('browser')
    .withVariable(new DatasourceVariableBuilder('datasource').label('Prometheus').type('prometheus').hide(VariableHide.DontHide))
    .withVariable(queryVariable('namespace', 'Namespace', 'label_values(tailor_vpa_recommendation, namespace)'))
    .withVariable(queryVariable('workload', 'Workload', 'label_values(tailor_vpa_recommendation{namespace="$namespace"}, target_name)'))
    .withVariable(
      queryVariable('container', 'Container', 'label_values(tailor_vpa_recommendation{namespace="$namespace", target_name="$workload"}, container)', true),
    )
    // No default prices (docs/cost.md): 0 until set, so the money panel reads 0, never a made-up figure.
    .withVariable(
      priceVariable(
        'cpu_hour_price',
        'Price per CPU-hour',
        "Price of one CPU core requested for an hour, e.g. 0.0316 (your provider's price; 0: not set).",
        '0',
      ),
    )
    .withVariable(
      priceVariable('memory_gib_hour_price', 'Price per GiB-hour', 'Price of one GiB of memory requested for an hour, e.g. 0.0042 (0: not set).', '0'),
    )
    .withVariable(priceVariable('currency', 'Currency', "The prices' currency, a label only.", 'USD'));
  const l = new Layout(builder);
  l.row('Workload $workload in $namespace: usage, requests, limits and recommendation');
  l.panel(
    'timeseries',
    'CPU: usage, requests, limits and recommendation',
    "CPU cores of the busiest pod of the workload per container, against its requests and limits and the VPA's target, lower and upper bound.",
    12,
    9,
    'cores',
    resourceQueries('cpu'),
    boundStyles(),
  );
  l.panel(
    'timeseries',
    'Memory: working set, requests, limits and recommendation',
    "Working set bytes of the busiest pod of the workload per container, against its requests and limits and the VPA's target, lower and upper bound.",
    12,
    9,
    'bytes',
    resourceQueries('memory'),
    boundStyles(),
  );

  l.row('Estimated savings in $namespace (requests minus target, every pod)');
  l.panel(
    'stat',
    'CPU savings',
    'Requested CPU minus the recommended target, summed over every pod of every container with a VPA in the namespace (negative: more is needed).',
    4,
    8,
    'cores',
    [{ expr: `sum(${savings('cpu')})`, legend: 'cores' }],
  );
  l.panel('stat', 'Memory savings', 'Requested memory minus the recommended target, summed like CPU.', 4, 8, 'bytes', [
    { expr: `sum(${savings('memory')})`, legend: 'bytes' },
  ]);
  l.panel('timeseries', 'CPU savings by workload', 'Requested minus target CPU cores per workload.', 8, 8, 'cores', [
    { expr: savings('cpu'), legend: '{{workload}}' },
  ]);
  l.panel('timeseries', 'Memory savings by workload', 'Requested minus target memory bytes per workload.', 8, 8, 'bytes', [
    { expr: savings('memory'), legend: '{{workload}}' },
  ]);
  l.panel(
    'timeseries',
    'Monthly cost of requests vs recommendations ($currency)',
    `What the requests of every pod of every container with a VPA in the namespace cost a month (${HOURS_PER_MONTH} h) at the Price per CPU-hour and Price per GiB-hour variables, what the recommended targets would cost, and the saving (negative: the recommendations cost more). Requests only: not limits, node packing or discounts (docs/cost.md). 0 until the prices are set.`,
    24,
    8,
    'money',
    moneyQueries(),
  );

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

  l.row('Early memory warnings');
  l.panel(
    'timeseries',
    'Working set against the memory limit in $namespace',
    `Each container's working set as a share of its memory limit (containers without a limit are left out), with the warning (${WARN.warningRatio * 100}%) and critical (${WARN.criticalRatio * 100}%) lines of Tailor's alerts and Events.`,
    12,
    8,
    'percentunit',
    [
      {
        expr: `max by (pod, container) (container_memory_working_set_bytes{namespace="${NS}", container!="", container!="POD"}) / max by (pod, container) (kube_pod_container_resource_limits{namespace="${NS}", resource="memory"} > 0)`,
        legend: '{{pod}}/{{container}}',
      },
      { expr: `vector(${WARN.warningRatio})`, legend: 'warning' },
      { expr: `vector(${WARN.criticalRatio})`, legend: 'critical' },
    ],
  );
  l.panel(
    'timeseries',
    'Memory warnings',
    `Containers whose working set stays above ${WARN.warningRatio * 100}% (warning) or ${WARN.criticalRatio * 100}% (critical) of their memory limit, workloads with ${WARN.workloadPods} or more such pods at once (updater, last loop), and the warnings told as Events per rate interval.`,
    12,
    8,
    'short',
    [
      { expr: 'max by (level) (tailor_updater_memory_warning_containers)', legend: 'containers {{level}}' },
      { expr: 'max(tailor_updater_memory_pressure_workloads)', legend: 'workloads under pressure' },
      { expr: `sum by (level) (increase(tailor_updater_memory_warnings_total[${RI}]))`, legend: 'told {{level}}' },
    ],
  );
  l.row('Workload health in $namespace');
  l.panel(
    'timeseries',
    'OOM kills',
    'Out-of-memory kills per container (cAdvisor), and the containers whose last termination was OOMKilled at some time in the interval (kube-state-metrics).',
    12,
    8,
    'short',
    [
      { expr: `sum by (pod, container) (increase(container_oom_events_total{namespace="${NS}"}[${RI}]))`, legend: 'OOM kills {{pod}}/{{container}}' },
      {
        expr: `max by (pod, container) (max_over_time(kube_pod_container_status_last_terminated_reason{namespace="${NS}", reason="OOMKilled"}[${RI}]))`,
        legend: 'last terminated OOMKilled {{pod}}/{{container}}',
      },
    ],
  );
  l.panel(
    'timeseries',
    'Container restarts',
    'Container restarts (OOM kills, restarts of a resize with resizePolicy RestartContainer, crashes).',
    12,
    8,
    'short',
    [{ expr: `sum by (pod, container) (increase(kube_pod_container_status_restarts_total{namespace="${NS}"}[${RI}]))`, legend: '{{pod}}/{{container}}' }],
  );

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

  // The builders' output as plain JSON (what Grafana imports), read through this file's types.
  return JSON.parse(JSON.stringify(builder.build())) as GrafanaDashboard;
}
