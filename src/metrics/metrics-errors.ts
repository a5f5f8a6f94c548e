/**
 * Typed errors of the metrics source. `prometheus-query` rejects with plain objects
 * (`{status:'error', errorType, error, httpStatus?, code?}`); {@link wrapPrometheusError} turns
 * them into one of these classes with the original kept as `cause`, so callers can tell a
 * Prometheus that is down from one that rejected the query.
 */

/** Base class; `query` is the PromQL that failed (shortened). */
export class MetricsSourceError extends Error {
  /** Whether trying again may help (network, timeout, 5xx). */
  readonly retryable: boolean = false;
  constructor(
    message: string,
    readonly query: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The server could not be reached (connection refused, DNS, TLS). */
export class PrometheusUnreachableError extends MetricsSourceError {
  override readonly retryable = true;
}

/** The request or the query evaluation took too long. */
export class PrometheusTimeoutError extends MetricsSourceError {
  override readonly retryable = true;
}

/** The server rejected the query (bad PromQL, too many points, unknown function): retrying will not help. */
export class BadQueryError extends MetricsSourceError {}

/** The server answered with an error status or an unreadable body. 5xx are retryable. */
export class PrometheusServerError extends MetricsSourceError {
  override readonly retryable: boolean;
  constructor(
    message: string,
    query: string,
    readonly httpStatus: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, query, options);
    this.retryable = httpStatus === undefined || httpStatus >= 500 || httpStatus === 429;
  }
}

/** Some batches of a fetch failed: the data returned is incomplete. `failed` names what is missing. */
export class PartialDataError extends MetricsSourceError {
  constructor(
    message: string,
    readonly failed: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(message, '', options);
  }
}

interface PrometheusQueryFailure {
  status?: unknown;
  errorType?: unknown;
  error?: unknown;
  httpStatus?: unknown;
  code?: unknown;
}

/** Status and content type of an HTTP answer, and the start of its body when that is text. */
export interface HttpAnswer {
  status: number;
  contentType: string;
  /** The first line of the body (at most 200 characters), e.g. Cortex's "no org id". */
  text?: string;
}

function shorten(query: string): string {
  return query.length > 200 ? `${query.slice(0, 200)}...` : query;
}

/**
 * Classifies whatever `prometheus-query` (or axios under it) threw. Worked example: a 400 answer
 * `{errorType:'http_error', httpStatus:400, error:'exceeded maximum resolution of 11,000 points per
 * timeseries'}` becomes a BadQueryError whose message carries the server's words.
 */
export function wrapPrometheusError(raw: unknown, query: string, endpoint: string, answer?: HttpAnswer): MetricsSourceError {
  if (raw instanceof MetricsSourceError) return raw;
  // prometheus-query re-catches its own client_error and wraps it as a network_error: unwrap it.
  const original = (raw as { original?: { status?: unknown; errorType?: unknown } } | null)?.original;
  if (original && original.status === 'error' && typeof original.errorType === 'string') return wrapPrometheusError(original, query, endpoint, answer);
  const q = shorten(query);
  const f: PrometheusQueryFailure = typeof raw === 'object' && raw !== null ? (raw as PrometheusQueryFailure) : {};
  const detail = typeof f.error === 'string' ? f.error : raw instanceof Error ? raw.message : String(raw);
  const status = typeof f.httpStatus === 'number' ? f.httpStatus : undefined;
  const code = typeof f.code === 'string' ? f.code : undefined;
  const prometheusType = (raw as { prometheus?: { errorType?: unknown } } | null)?.prometheus?.errorType;
  if (f.errorType === 'timeout_error' || code === 'ETIMEDOUT' || prometheusType === 'timeout') {
    return new PrometheusTimeoutError(`Prometheus at ${endpoint} timed out: ${detail}`, q, { cause: raw });
  }
  if (f.errorType === 'network_error' || f.errorType === 'ssl_error') {
    return new PrometheusUnreachableError(`Prometheus at ${endpoint} is unreachable: ${detail}${code && !detail.includes(code) ? ` (${code})` : ''}`, q, {
      cause: raw,
    });
  }
  if (f.errorType === 'http_error' && (status === 400 || status === 422 || prometheusType === 'bad_data' || prometheusType === 'execution')) {
    return new BadQueryError(`Prometheus at ${endpoint} rejected the query (HTTP ${status}): ${detail}`, q, { cause: raw });
  }
  if (f.errorType === 'http_error') {
    return new PrometheusServerError(`Prometheus at ${endpoint} answered HTTP ${status}: ${detail}`, q, status, { cause: raw });
  }
  if (f.errorType === 'client_error') return notTheApi(endpoint, q, answer, detail, raw);
  return new PrometheusServerError(`query to Prometheus at ${endpoint} failed: ${detail}`, q, status, { cause: raw });
}

/**
 * An answer without the API's JSON (`{status, data}`): an HTML page from a UI, a proxy or a login
 * form, usually a wrong URL; or a refusal (401, 403) in plain text, as Cortex's "no org id" when the
 * tenant header is missing. Worked examples: HTTP 404 text/html -> "answered HTTP 404 (text/html),
 * not the Prometheus API"; HTTP 401 text/plain "no org id" -> "refused the request: HTTP 401
 * (text/plain) "no org id": check the credentials ... or the tenant header". Retried only for 5xx /
 * 429 (a proxy's temporary page), never for a 4xx or a 200 page: asking again gets the same page.
 */
function notTheApi(endpoint: string, q: string, answer: HttpAnswer | undefined, detail: string, raw: unknown): PrometheusServerError {
  if (!answer) return new PrometheusServerError(`Prometheus at ${endpoint} sent an unreadable answer: ${detail}`, q, undefined, { cause: raw });
  const type = answer.contentType.split(';')[0]!.trim() || 'no content type';
  const said = type === 'text/plain' && answer.text ? ` ${JSON.stringify(answer.text)}` : '';
  if (answer.status === 401 || answer.status === 403) {
    return new PrometheusServerError(
      `Prometheus at ${endpoint} refused the request: HTTP ${answer.status} (${type})${said}: check the credentials (bearer token, basic auth) or the tenant header (X-Scope-OrgID on Cortex or Mimir)`,
      q,
      answer.status,
      { cause: raw },
    );
  }
  const hint = answer.status < 500 ? ": check --prometheus-url (the server's base URL, e.g. http://prometheus:9090, without /api/v1 or a UI path)" : '';
  return new PrometheusServerError(
    `Prometheus at ${endpoint} answered HTTP ${answer.status} (${type})${said}, not the Prometheus API${hint}`,
    q,
    answer.status,
    {
      cause: raw,
    },
  );
}
