/**
 * Where the dashboard's panels go and how they look: rows and panels placed left to right in
 * Grafana's 24-column grid, time series and stat panels styled alike, a unit per panel.
 */
import * as common from '@grafana/grafana-foundation-sdk/common';
import { RowBuilder, type DashboardBuilder, type DynamicConfigValue } from '@grafana/grafana-foundation-sdk/dashboard';
import { DataqueryBuilder } from '@grafana/grafana-foundation-sdk/prometheus';
import { PanelBuilder as StatPanelBuilder } from '@grafana/grafana-foundation-sdk/stat';
import { PanelBuilder as TimeseriesPanelBuilder } from '@grafana/grafana-foundation-sdk/timeseries';
import { DS } from './dashboard-promql.ts';

type Unit = 'cores' | 'bytes' | 's' | 'short' | 'none' | 'percentunit' | 'money';

/** One query of a panel: its PromQL and legend format. */
export interface Query {
  expr: string;
  legend: string;
}

const UNITS: Record<Unit, string> = { cores: 'suffix: cores', bytes: 'bytes', s: 's', short: 'short', none: 'none', percentunit: 'percentunit', money: 'none' };

/** Places rows and panels left to right, wrapping to a new line when a panel would not fit the 24 columns. */
export class Layout {
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
export interface Override {
  regex: string;
  properties: DynamicConfigValue[];
}
