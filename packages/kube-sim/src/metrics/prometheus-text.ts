/**
 * A small writer for the Prometheus text exposition format (version 0.0.4): `# HELP`, `# TYPE`,
 * then one line per sample `name{label="value",...} value`. Label values escape `\`, `"` and
 * newlines; families with no samples are still announced so scrapers see the names.
 */

export type MetricType = 'counter' | 'gauge';

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

export const TEXT_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** Renders metric families in the text format. */
export function renderText(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${f.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`);
    lines.push(`# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) {
      const labels = Object.entries(s.labels)
        .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
        .join(',');
      lines.push(`${f.name}${labels ? `{${labels}}` : ''} ${formatValue(s.value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
