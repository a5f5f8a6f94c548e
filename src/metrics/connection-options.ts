/**
 * How to reach a PromQL HTTP API (Prometheus, Thanos, VictoriaMetrics, Mimir, Cortex).
 */

export interface ConnectionOptions {
  /** Base URL, e.g. `http://prometheus:9090` or `https://mimir/prometheus`. */
  url: string;
  /** Per-request timeout in ms (default 30 s). */
  timeoutMs?: number;
  /** Retries after the first attempt for retryable failures (default 3). */
  retries?: number;
  /** First backoff delay in ms; doubles per retry, randomised x1-2 (default 250 ms). */
  retryMinDelayMs?: number;
  /** Longest backoff delay in ms (default 5 s). */
  retryMaxDelayMs?: number;
  /** Queries longer than this many characters are sent as POST form bodies (default 1,500). */
  postAboveChars?: number;
  /** A bearer token given literally. */
  bearerToken?: string;
  /** A file holding the bearer token (re-read when it changes, as projected tokens rotate). */
  bearerTokenFile?: string;
  /** HTTP basic auth. */
  basicAuth?: { username: string; password: string };
  /** Extra headers, e.g. `{ 'X-Scope-OrgID': 'tenant-a' }` for Mimir / Cortex. */
  headers?: Record<string, string>;
  /** PEM file with the CA that signed the server's certificate. */
  caFile?: string;
  /** Accept any server certificate (testing only). */
  insecureSkipVerify?: boolean;
}

export const CONNECTION_DEFAULTS = {
  timeoutMs: 30_000,
  retries: 3,
  retryMinDelayMs: 250,
  retryMaxDelayMs: 5_000,
  postAboveChars: 1_500,
} as const;

/** Parses `Name: value` header arguments (`X-Scope-OrgID: team-a`). */
export function parseHeader(text: string): [string, string] {
  const i = text.indexOf(':');
  if (i <= 0) throw new Error(`invalid header ${JSON.stringify(text)}: expected "Name: value"`);
  return [text.slice(0, i).trim(), text.slice(i + 1).trim()];
}
