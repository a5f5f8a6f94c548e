/**
 * A Vega-Lite chart for one dashboard panel, drawn like Grafana's time series: the panel's title,
 * one line per series named by its legend, the panel's unit on the y axis. Bytes are shown in MiB,
 * time on the x axis as seconds since the first sample. A series far above the others (the
 * recommendation's upper bound while confidence is low is x1,000 and more) would flatten every
 * other line: the y axis stops at 1.5 x the highest other series (see clipTop) and such a series is
 * named "(off scale)" in the legend. Series that stay at zero all along (zero-initialised counters of
 * outcomes that never happened) are left out, as Grafana's "hide zeros" would.
 */
import type { TopLevelSpec } from 'vega-lite';

/** One drawn series: its legend and [unix seconds, value] points. */
export interface ChartSeries {
  name: string;
  points: ReadonlyArray<readonly [number, number]>;
}

export interface PanelChart {
  title: string;
  unit: string;
  series: ChartSeries[];
}

const MiB = 1024 * 1024;

/** The axis title and the divisor of a Grafana unit. */
function axis(unit: string): { title: string; divisor: number } {
  if (unit === 'bytes') return { title: 'MiB', divisor: MiB };
  if (unit === 's') return { title: 'seconds', divisor: 1 };
  return { title: unit === 'none' ? '' : unit === 'short' ? 'count' : unit, divisor: 1 };
}

/**
 * The y-axis top when series are far above the rest: each series whose highest value is more than
 * 10x the largest magnitude (|value|) of every lower series is cut, and the axis stops at 1.5x the
 * highest value left; undefined when nothing is cut. Series ranges [0, 2], [0, 3] and [0, 4,000]
 * (an upper bound of low confidence) give 4.5; [-8, 0] and [0, 0.5] give undefined (8 outweighs 0.5).
 */
export function clipTop(ranges: ReadonlyArray<{ min: number; max: number }>): number | undefined {
  const sorted = ranges.filter((r) => Number.isFinite(r.max) && Number.isFinite(r.min)).sort((a, b) => b.max - a.max);
  let cut = 0;
  while (cut < sorted.length - 1) {
    const rest = sorted.slice(cut + 1);
    const magnitude = Math.max(...rest.map((r) => Math.max(Math.abs(r.min), Math.abs(r.max))));
    if (!(sorted[cut]!.max > 10 * magnitude)) break;
    cut++;
  }
  if (cut === 0) return undefined;
  const top = Math.max(...sorted.slice(cut).map((r) => r.max));
  return top > 0 ? top * 1.5 : undefined;
}

/** The series to draw: those with a non-zero value (zero-initialised counters that never moved are noise), or all when every one is zero. */
export function drawnSeries(series: readonly ChartSeries[]): ChartSeries[] {
  const moving = series.filter((s) => s.points.some(([, v]) => v !== 0 && Number.isFinite(v)));
  return moving.length > 0 ? moving : [...series];
}

/** One panel as a layered line chart, `width` x `height` pixels of plot. */
export function panelSpec(panel: PanelChart, width: number, height: number): TopLevelSpec {
  const { title, divisor } = axis(panel.unit);
  panel = { ...panel, series: drawnSeries(panel.series) };
  const start = Math.min(...panel.series.flatMap((s) => s.points.map(([t]) => t)));
  const finiteValues = (s: ChartSeries) => s.points.map(([, v]) => v / divisor).filter(Number.isFinite);
  const maxima = panel.series.map((s) => Math.max(...finiteValues(s)));
  const top = clipTop(panel.series.map((s, i) => ({ min: Math.min(...finiteValues(s)), max: maxima[i]! })));
  const values = panel.series.flatMap((s, i) => {
    const name = top !== undefined && maxima[i]! > top ? `${s.name} (off scale)` : s.name;
    return s.points
      .filter(([, v]) => Number.isFinite(v))
      .map(([t, v]) => ({ t: t - start, v: top === undefined ? v / divisor : Math.min(v / divisor, top), series: name }));
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: panel.title, anchor: 'start', fontSize: 13 },
    width,
    height,
    data: { values },
    mark: { type: 'line', strokeWidth: 1.5, interpolate: 'step-after' },
    encoding: {
      x: { field: 't', type: 'quantitative', title: 'seconds', axis: { tickCount: 6 } },
      y: { field: 'v', type: 'quantitative', title, ...(top !== undefined ? { scale: { domainMax: top } } : {}) },
      color: { field: 'series', type: 'nominal', legend: { orient: 'bottom', columns: 2, title: null, labelLimit: 210, symbolType: 'stroke' } },
    },
  } as TopLevelSpec;
}

/** Several panels in a grid of `columns`. */
export function gridSpec(panels: readonly PanelChart[], columns: number, width: number, height: number): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    background: 'white',
    padding: 12,
    columns,
    concat: panels.map((p) => {
      const { $schema: _schema, ...spec } = panelSpec(p, width, height) as TopLevelSpec & { $schema?: string };
      return spec;
    }),
    resolve: { scale: { color: 'independent', y: 'independent', x: 'independent' } },
    config: { font: 'DejaVu Sans', view: { stroke: '#ddd' }, axis: { labelFontSize: 10, titleFontSize: 10 }, legend: { labelFontSize: 10 } },
  } as TopLevelSpec;
}
