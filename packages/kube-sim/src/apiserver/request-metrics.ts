/**
 * Counts the API requests HTTP clients make, like the real server's `apiserver_request_total`
 * and `apiserver_request_duration_seconds` (served at `/metrics`), plus an in-process snapshot per
 * user, so a benchmark can report how many calls of each kind a component made (e.g. the
 * updater's `PATCH pods/resize` per VPA). In-process requests are not counted.
 *
 * `onRecord(listener)` is the request log: each finished request, in the order they finish, with
 * its object, user agent, field manager and start/end times, so a test can prove who wrote what
 * when (e.g. that two leader-elected replicas never wrote at the same time).
 */
import { Counter, Histogram, Registry } from 'prom-client';

/** One request as counted. */
export interface RequestRecord {
  /** Real-server verb label: GET, LIST, WATCH, POST, PUT, PATCH, APPLY, DELETE, DELETECOLLECTION. */
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** `resource` (one object), `namespace` or `cluster` (collections). */
  scope: string;
  code: number;
  username: string;
  seconds: number;
  /** The object's namespace and name, when the request named them. */
  namespace?: string;
  name?: string;
  /** The client's User-Agent header. */
  userAgent?: string;
  /** The `fieldManager` query parameter of a write. */
  fieldManager?: string;
  /** Wall-clock start and end of the request (ms since the epoch; a watch ends when it starts). */
  startedAt?: number;
  endedAt?: number;
}

/** A snapshot row: how many requests matched these labels. */
export interface RequestCount {
  verb: string;
  resource: string;
  subresource: string;
  code: number;
  username: string;
  count: number;
}

/** Maps a request verb and patch content type to the real metric's verb label. */
export function metricVerb(verb: string, contentType: string | undefined): string {
  if (verb === 'patch' && (contentType ?? '').startsWith('application/apply-patch')) return 'APPLY';
  if (verb === 'create') return 'POST';
  if (verb === 'update') return 'PUT';
  return verb.toUpperCase();
}

export class RequestMetrics {
  /** The Prometheus registry served at `/metrics`. */
  readonly registry = new Registry();
  private readonly total: Counter;
  private readonly duration: Histogram;
  private readonly counts = new Map<string, RequestCount>();
  private listeners: Array<(r: RequestRecord) => void> = [];

  constructor() {
    const labelNames = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'code'];
    this.total = new Counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, group, version, resource, scope and HTTP response code.',
      labelNames,
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, group, version, resource, subresource and scope.',
      labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope'],
      buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 5, 10, 30, 60],
      registers: [this.registry],
    });
  }

  /** Counts one finished request (a watch counts when it starts). */
  record(r: RequestRecord): void {
    this.total.inc({
      verb: r.verb,
      group: r.group,
      version: r.version,
      resource: r.resource,
      subresource: r.subresource,
      scope: r.scope,
      code: String(r.code),
    });
    if (r.verb !== 'WATCH')
      this.duration.observe({ verb: r.verb, group: r.group, version: r.version, resource: r.resource, subresource: r.subresource, scope: r.scope }, r.seconds);
    const key = [r.verb, r.resource, r.subresource, r.code, r.username].join('\u0000');
    const row = this.counts.get(key);
    if (row) row.count += 1;
    else this.counts.set(key, { verb: r.verb, resource: r.resource, subresource: r.subresource, code: r.code, username: r.username, count: 1 });
    for (const listener of this.listeners) listener(r);
  }

  /** Calls `listener` with every request recorded from now on; returns a function that stops it. */
  onRecord(listener: (r: RequestRecord) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** The counts so far, optionally only those matching a filter. */
  snapshot(filter: Partial<Omit<RequestCount, 'count'>> = {}): RequestCount[] {
    return [...this.counts.values()].filter((row) => Object.entries(filter).every(([k, v]) => row[k as keyof RequestCount] === v)).map((row) => ({ ...row }));
  }

  /** Total number of requests matching a filter. */
  count(filter: Partial<Omit<RequestCount, 'count'>> = {}): number {
    return this.snapshot(filter).reduce((sum, row) => sum + row.count, 0);
  }

  /** Forgets everything counted so far. */
  reset(): void {
    this.counts.clear();
    this.registry.resetMetrics();
  }
}
