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
 *
 * This file holds the dashboard and its variables; each row's panels are in a file of their own
 * (usage-row.ts, savings-row.ts, updater-rows.ts, workload-health-rows.ts, tailor-row.ts), placed
 * in the grid by panel-layout.ts.
 */
import {
  DashboardBuilder,
  DashboardCursorSync,
  DatasourceVariableBuilder,
  QueryVariableBuilder,
  TextBoxVariableBuilder,
  VariableHide,
  VariableRefresh,
  VariableSort,
} from '@grafana/grafana-foundation-sdk/dashboard';
import { DS } from './dashboard-promql.ts';
import { Layout } from './panel-layout.ts';
import { savingsRow } from './savings-row.ts';
import { tailorRow } from './tailor-row.ts';
import { updaterRows } from './updater-rows.ts';
import { usageRow } from './usage-row.ts';
import { workloadHealthRows } from './workload-health-rows.ts';

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

/** A text box variable for a price or the currency, with its default. */
function priceVariable(name: string, label: string, description: string, value: string): TextBoxVariableBuilder {
  return new TextBoxVariableBuilder(name).label(label).description(description).defaultValue(value).hide(VariableHide.DontHide);
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
  usageRow(l);
  savingsRow(l);
  updaterRows(l);
  workloadHealthRows(l);
  tailorRow(l);

  // The builders' output as plain JSON (what Grafana imports), read through this file's types.
  return JSON.parse(JSON.stringify(builder.build())) as GrafanaDashboard;
}
