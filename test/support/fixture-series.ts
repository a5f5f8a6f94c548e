/**
 * Test series in memory and their text forms: OpenMetrics (for `promtool tsdb
 * create-blocks-from openmetrics`, timestamps in seconds, ending with `# EOF`) and the Prometheus
 * exposition format with millisecond timestamps (for VictoriaMetrics' /api/v1/import/prometheus).
 */

/** One series: metric name, labels, samples as [ms, value]. */
export interface FixtureSeries {
  metric: string;
  labels: Record<string, string>;
  samples: Array<[number, number]>;
}

function labelText(labels: Record<string, string>): string {
  const parts = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`);
  return `{${parts.join(',')}}`;
}

function valueText(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

/**
 * OpenMetrics text of the samples with from <= t < to. Series are grouped by metric name (a
 * metric family must be contiguous); `null` if no sample falls in the window.
 */
export function openMetricsText(series: readonly FixtureSeries[], from: number, to: number): string | null {
  const sorted = [...series].sort((a, b) => a.metric.localeCompare(b.metric));
  const lines: string[] = [];
  for (const s of sorted) {
    const labels = labelText(s.labels);
    for (const [t, v] of s.samples) if (t >= from && t < to) lines.push(`${s.metric}${labels} ${valueText(v)} ${t / 1000}`);
  }
  if (lines.length === 0) return null;
  lines.push('# EOF', '');
  return lines.join('\n');
}

/** Prometheus exposition lines with ms timestamps, for VictoriaMetrics' import endpoint. */
export function* exposition(series: readonly FixtureSeries[], batchLines = 50_000): Generator<string> {
  let lines: string[] = [];
  for (const s of series) {
    const labels = labelText(s.labels);
    for (const [t, v] of s.samples) {
      lines.push(`${s.metric}${labels} ${valueText(v)} ${t}`);
      if (lines.length >= batchLines) {
        yield `${lines.join('\n')}\n`;
        lines = [];
      }
    }
  }
  if (lines.length > 0) yield `${lines.join('\n')}\n`;
}
