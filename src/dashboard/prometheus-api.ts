/**
 * The two calls of Prometheus' HTTP API the dashboard test and renderer need: an instant query and
 * a range query, plus label values (`/api/v1/label/<name>/values`, what Grafana's label_values()
 * variables call). Errors (HTTP or `status: error`) are thrown with the query in the message.
 */

/** One series of a query answer: its labels and its [unix seconds, value] samples. */
export interface Series {
  metric: Record<string, string>;
  values: Array<[number, number]>;
}

export class PrometheusQueryError extends Error {
  override readonly name = 'PrometheusQueryError';
}

interface Answer {
  status: 'success' | 'error';
  error?: string;
  data?: { resultType: string; result: Array<{ metric: Record<string, string>; value?: [number, string]; values?: Array<[number, string]> }> };
}

async function call(url: string, what: string): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new PrometheusQueryError(`${what}: request failed`, { cause: err });
  }
  const body = (await res.json().catch(() => ({ status: 'error', error: `HTTP ${res.status}, not JSON` }))) as Answer;
  if (!res.ok || body.status !== 'success') throw new PrometheusQueryError(`${what}: ${body.error ?? `HTTP ${res.status}`}`);
  return body;
}

function toSeries(answer: Answer): Series[] {
  return (answer.data?.result ?? []).map((r) => ({
    metric: r.metric,
    values: (r.values ?? (r.value ? [r.value] : [])).map(([t, v]) => [t, Number(v)] as [number, number]),
  }));
}

/** An instant query at `time` (unix seconds; default now). */
export async function instantQuery(baseUrl: string, expr: string, time?: number): Promise<Series[]> {
  const params = new URLSearchParams({ query: expr, ...(time !== undefined ? { time: String(time) } : {}) });
  return toSeries(await call(`${baseUrl}/api/v1/query?${params}`, `query ${expr}`));
}

/** A range query from `start` to `end` (unix seconds) every `stepSeconds`. */
export async function rangeQuery(baseUrl: string, expr: string, start: number, end: number, stepSeconds: number): Promise<Series[]> {
  const params = new URLSearchParams({ query: expr, start: String(start), end: String(end), step: String(stepSeconds) });
  return toSeries(await call(`${baseUrl}/api/v1/query_range?${params}`, `range query ${expr}`));
}

/** Values of label `label` on the series matching `match` (Grafana's `label_values(match, label)`). */
export async function labelValues(baseUrl: string, label: string, match: string): Promise<string[]> {
  const params = new URLSearchParams({ 'match[]': match });
  const answer = (await call(`${baseUrl}/api/v1/label/${encodeURIComponent(label)}/values?${params}`, `label_values(${match}, ${label})`)) as unknown as {
    data: string[];
  };
  return answer.data;
}
