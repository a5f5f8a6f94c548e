/**
 * Reads a Grafana dashboard JSON the way Grafana runs it: every panel target's PromQL (rows
 * included) and the template variables, and substitutes variables as Grafana's Prometheus data
 * source does, so the same queries can be sent to Prometheus' HTTP API by a test or a renderer.
 */

/** One panel target: the panel's title, the target's refId, PromQL and legend format. */
export interface PanelQuery {
  panel: string;
  refId: string;
  expr: string;
  legendFormat: string;
}

interface RawPanel {
  type?: string;
  title?: string;
  targets?: Array<{ refId?: string; expr?: string; legendFormat?: string }>;
  panels?: RawPanel[];
}

/** Every target with an expression of every panel, in dashboard order (collapsed rows' panels included). */
export function panelQueries(dashboard: { panels?: RawPanel[] }): PanelQuery[] {
  const out: PanelQuery[] = [];
  const visit = (panels: RawPanel[] | undefined) => {
    for (const p of panels ?? []) {
      for (const t of p.targets ?? []) {
        if (t.expr) out.push({ panel: p.title ?? '', refId: t.refId ?? '', expr: t.expr, legendFormat: t.legendFormat ?? '' });
      }
      visit(p.panels);
    }
  };
  visit(dashboard.panels);
  return out;
}

/** A query variable: its name and `label_values(...)` definition. */
export interface VariableQuery {
  name: string;
  multi: boolean;
  definition: string;
}

/** The dashboard's query variables in order (each may use the ones before it). */
export function variableQueries(dashboard: {
  templating?: { list?: Array<{ name: string; type: string; multi?: boolean; definition?: string; query?: unknown }> };
}): VariableQuery[] {
  return (dashboard.templating?.list ?? [])
    .filter((v) => v.type === 'query')
    .map((v) => ({
      name: v.name,
      multi: v.multi ?? false,
      definition: v.definition ?? (typeof v.query === 'string' ? v.query : (v.query as { query: string }).query),
    }));
}

/** The dashboard's text box variables (the prices) with their default values. */
export function textVariables(dashboard: { templating?: { list?: Array<{ name: string; type: string; query?: unknown }> } }): Record<string, string> {
  return Object.fromEntries(
    (dashboard.templating?.list ?? []).filter((v) => v.type === 'textbox').map((v) => [v.name, typeof v.query === 'string' ? v.query : '']),
  );
}

/** `label_values(metric{matchers}, label)` split into series selector and label; undefined for another form. */
export function parseLabelValues(definition: string): { match: string; label: string } | undefined {
  const m = /^\s*label_values\(\s*(.+)\s*,\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\)\s*$/.exec(definition);
  return m ? { match: m[1]!.trim(), label: m[2]! } : undefined;
}

/** Values of the variables: one value, or several (a multi-value variable with All or a selection). */
export type VariableValues = Readonly<Record<string, string | readonly string[]>>;

/** Escapes a value for a regex matcher as Grafana does for multi-value variables. */
function regexEscape(value: string): string {
  return value.replace(/[\\^$*+?.()|[\]{}]/g, '\\$&');
}

/**
 * Substitutes `$name`, `${name}` and `[[name]]` with the variable's value; a list of values becomes
 * `(a|b)` with regex escaping, as Grafana formats multi values for Prometheus. `$__rate_interval`,
 * `$__interval` and `$__range` are taken from `intervals` (e.g. `{__rate_interval: '1m'}`).
 * Names not in `values` are left as they are (so `$1` in label_replace stays).
 * Example: `x{c=~"$container"}` with container = ['app', 'sidecar'] reads `x{c=~"(app|sidecar)"}`.
 */
export function substitute(expr: string, values: VariableValues, intervals: Readonly<Record<string, string>> = {}): string {
  const all: Record<string, string | readonly string[]> = { ...intervals, ...values };
  return expr.replace(/\$\{(\w+)\}|\[\[(\w+)\]\]|\$(\w+)/g, (whole, a?: string, b?: string, c?: string) => {
    const name = (a ?? b ?? c)!;
    const value = all[name];
    if (value === undefined) return whole;
    return typeof value === 'string' ? value : value.length === 1 ? regexEscape(value[0]!) : `(${value.map(regexEscape).join('|')})`;
  });
}

/** The legend of a series: `{{label}}` replaced by the series' label values (Grafana's legendFormat). */
export function legendOf(format: string, labels: Readonly<Record<string, string>>): string {
  if (!format)
    return `{${Object.entries(labels)
      .map(([k, v]) => `${k}="${v}"`)
      .join(', ')}}`;
  return format.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => labels[name] ?? '');
}
