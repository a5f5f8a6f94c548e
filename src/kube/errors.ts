/**
 * Classification of Kubernetes API errors as @kubernetes/client-node 1.x reports them, into what a
 * controller should do next. client-node throws an `ApiException` (HTTP `code`, the raw `body`
 * text of the server's `Status`, lower-case `headers`) for answers outside 2xx, and fetch errors
 * (`FetchError` with a system `code` such as `ECONNREFUSED`, `AbortError` on timeouts) when no
 * answer came.
 *
 * | kind | from | action |
 * |---|---|---|
 * | notFound | 404 | drop: the object is gone, forget it |
 * | alreadyExists | 409 reason AlreadyExists | drop: somebody created it first; re-read |
 * | conflict | 409 (stale resourceVersion) | retry: re-read, re-apply, write again |
 * | gone | 410 Expired / Gone | retry: re-list (a watch's resourceVersion is too old) |
 * | invalid | 422, 400 | report: say so on the object; sending it again will not help |
 * | throttled | 429 | backoff: wait at least Retry-After (header or `details.retryAfterSeconds`) |
 * | unauthorized, forbidden | 401, 403 | fail: a credential or RBAC problem, log it loudly |
 * | unavailable | 5xx | backoff |
 * | network | no answer (refused, reset, DNS, timeout) | backoff |
 * | other | anything else | fail |
 */

/** What went wrong, in the terms a controller acts on. */
export type ApiErrorKind =
  'notFound' | 'alreadyExists' | 'conflict' | 'gone' | 'invalid' | 'throttled' | 'unauthorized' | 'forbidden' | 'unavailable' | 'network' | 'other';

/** What to do about it. */
export type ApiErrorAction = 'drop' | 'retry' | 'report' | 'backoff' | 'fail';

/** One field-level cause of an Invalid answer. */
export interface ApiErrorCause {
  field?: string;
  reason?: string;
  message?: string;
}

/** A classified API error. */
export interface ClassifiedApiError {
  kind: ApiErrorKind;
  action: ApiErrorAction;
  /** The HTTP status, when the server answered. */
  code?: number;
  /** The Status reason (`NotFound`, `Conflict`, `Invalid`, ...), when the body had one. */
  reason?: string;
  /** The server's message, or the error's own. */
  message: string;
  /** For throttled (and 5xx answers that carry one): how long the server asked us to wait. */
  retryAfterMs?: number;
  /** For invalid: the field-level causes. */
  causes: ApiErrorCause[];
}

const ACTIONS: Record<ApiErrorKind, ApiErrorAction> = {
  notFound: 'drop',
  alreadyExists: 'drop',
  conflict: 'retry',
  gone: 'retry',
  invalid: 'report',
  throttled: 'backoff',
  unauthorized: 'fail',
  forbidden: 'fail',
  unavailable: 'backoff',
  network: 'backoff',
  other: 'fail',
};

/** System error codes of a request that got no answer. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

interface StatusBody {
  reason?: string;
  message?: string;
  details?: { causes?: ApiErrorCause[]; retryAfterSeconds?: number };
}

/** Classifies anything thrown by a client-node call. */
export function classifyApiError(err: unknown): ClassifiedApiError {
  const e = (err ?? {}) as { code?: unknown; body?: unknown; headers?: unknown; name?: unknown; type?: unknown; message?: unknown; cause?: unknown };
  const ownMessage = typeof e.message === 'string' ? e.message : String(err);
  if (typeof e.code === 'number' && e.code >= 100 && e.code <= 599) {
    return fromStatus(e.code, parseStatus(e.body), headerValue(e.headers, 'retry-after'), ownMessage);
  }
  if (isNetworkError(err)) return make('network', { message: ownMessage });
  return make('other', { message: ownMessage });
}

function fromStatus(code: number, status: StatusBody, retryAfterHeader: string | undefined, fallback: string): ClassifiedApiError {
  const reason = status.reason;
  const message = status.message ?? firstLine(fallback);
  const causes = status.details?.causes ?? [];
  const retryAfterMs = retryAfter(retryAfterHeader, status.details?.retryAfterSeconds);
  const base = { code, reason, message, causes, retryAfterMs };
  if (code === 404) return make('notFound', base);
  if (code === 409) return make(reason === 'AlreadyExists' ? 'alreadyExists' : 'conflict', base);
  if (code === 410) return make('gone', base);
  if (code === 422 || code === 400) return make('invalid', base);
  if (code === 429) return make('throttled', { ...base, retryAfterMs: retryAfterMs ?? 1000 });
  if (code === 401) return make('unauthorized', base);
  if (code === 403) return make('forbidden', base);
  if (code >= 500) return make('unavailable', base);
  return make('other', base);
}

function make(kind: ApiErrorKind, fields: Partial<ClassifiedApiError> & { message: string }): ClassifiedApiError {
  const out: ClassifiedApiError = { kind, action: ACTIONS[kind], message: fields.message, causes: fields.causes ?? [] };
  if (fields.code !== undefined) out.code = fields.code;
  if (fields.reason !== undefined) out.reason = fields.reason;
  if (fields.retryAfterMs !== undefined) out.retryAfterMs = fields.retryAfterMs;
  return out;
}

/** client-node 1.x keeps the body as text; tolerate an already parsed object too. */
function parseStatus(body: unknown): StatusBody {
  if (typeof body === 'string') {
    try {
      const parsed: unknown = JSON.parse(body);
      return typeof parsed === 'object' && parsed !== null ? (parsed as StatusBody) : {};
    } catch {
      return {};
    }
  }
  return typeof body === 'object' && body !== null ? (body as StatusBody) : {};
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  }
  return undefined;
}

/**
 * Retry-After in ms: the header in seconds (`2` -> 2000) or as an HTTP date is preferred; the
 * Status's `details.retryAfterSeconds` otherwise. A date is not resolved here (no clock in pure
 * code) and falls back to the Status value.
 */
function retryAfter(header: string | undefined, detailSeconds: number | undefined): number | undefined {
  if (header !== undefined && /^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  if (typeof detailSeconds === 'number' && detailSeconds >= 0) return detailSeconds * 1000;
  return undefined;
}

function isNetworkError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const x = e as { code?: unknown; name?: unknown; type?: unknown };
    if (typeof x.code === 'string' && NETWORK_CODES.has(x.code)) return true;
    if (x.name === 'AbortError' || x.name === 'TimeoutError') return true;
    if (x.name === 'FetchError' && x.type === 'system') return true;
    if (x.type === 'request-timeout') return true;
  }
  return false;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

/**
 * An API failure wrapped with what the controller was doing, e.g.
 * `new KubeApiError('renew lease kube-system/tailor', err)`. Carries the classification; the
 * original error stays reachable as `cause`.
 */
export class KubeApiError extends Error {
  readonly classified: ClassifiedApiError;
  constructor(doing: string, cause: unknown) {
    const classified = classifyApiError(cause);
    super(`${doing}: ${classified.kind}${classified.code ? ` (${classified.code})` : ''}: ${classified.message}`, { cause });
    this.name = 'KubeApiError';
    this.classified = classified;
  }
}

/** Classifies an error, looking through a {@link KubeApiError} wrapper. */
export function classificationOf(err: unknown): ClassifiedApiError {
  return err instanceof KubeApiError ? err.classified : classifyApiError(err);
}
