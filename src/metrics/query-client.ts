/**
 * The HTTP edge of the Prometheus adapter: runs instant and range queries through
 * `prometheus-query`, with retries (exponential backoff, randomised), GET or POST by query length,
 * auth (bearer token literal or file, basic), extra headers, custom CA / skip-verify, and counts of
 * queries and bytes. Failures come out as typed {@link MetricsSourceError}s; server warnings are
 * returned with each answer (prometheus-query drops them, so an interceptor picks them up).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import pRetry from 'p-retry';
import { PrometheusDriver, type Metric, type QueryResult } from 'prometheus-query';
import type { InternalAxiosRequestConfig, AxiosResponse } from 'axios';
import { moduleLogger, type Logger } from '../observability/logger.ts';
import { BearerTokenFile } from './bearer-token.ts';
import { CONNECTION_DEFAULTS, type ConnectionOptions } from './connection-options.ts';
import { MatrixStreamSplitter } from './matrix-stream.ts';
import { wrapPrometheusError, type HttpAnswer, type MetricsSourceError } from './metrics-errors.ts';

/** Running totals of the traffic, for logs, metrics and the benchmark. */
export interface QueryStats {
  queries: number;
  retries: number;
  failures: number;
  /** Bytes of the (decompressed) JSON answers. */
  bytes: number;
}

/** An answer's payload and the server's warnings. */
export interface QueryAnswer<T = QueryResult> {
  result: T;
  warnings: string[];
}

interface CallContext {
  bytes: number;
  /** Set for a streamed range query: receives each series of the answer as it arrives. */
  onSeries?: (item: unknown) => void;
  warnings: string[];
  /** Status and content type of the last HTTP answer, to explain an answer that is not the API's JSON. */
  answer?: HttpAnswer;
}

/** The API endpoints used: instant and range queries, and the series (index) lookup. */
export type QueryKind = 'instant' | 'range' | 'series';

/** Receives every finished query (for metrics). */
export type QueryObserver = (event: { kind: QueryKind; durationMs: number; bytes: number; error?: MetricsSourceError }) => void;

/**
 * Refuses a URL that is not http(s) when the client is made (a typo is not retried); exported so a
 * command can refuse it with its other options, before anything starts.
 */
export function checkPrometheusUrl(text: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch (err) {
    throw new Error(`invalid Prometheus URL ${JSON.stringify(text)}: expected e.g. http://prometheus:9090`, { cause: err });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`invalid Prometheus URL ${JSON.stringify(text)}: use http or https`);
}

export class PrometheusQueryClient {
  readonly stats: QueryStats = { queries: 0, retries: 0, failures: 0, bytes: 0 };
  private readonly get: PrometheusDriver;
  private readonly post: PrometheusDriver;
  private readonly context = new AsyncLocalStorage<CallContext>();
  private readonly options: Required<Pick<ConnectionOptions, keyof typeof CONNECTION_DEFAULTS>> & ConnectionOptions;
  private readonly log: Logger;

  constructor(
    options: ConnectionOptions,
    logger: Logger,
    private readonly observer: QueryObserver = () => {},
  ) {
    checkPrometheusUrl(options.url);
    this.options = { ...CONNECTION_DEFAULTS, ...options };
    this.log = moduleLogger(logger, 'prometheus-client', { endpoint: options.url });
    const token = options.bearerTokenFile ? new BearerTokenFile(options.bearerTokenFile) : undefined;
    // No keep-alive: axios pins the last request on an idle pooled socket
    // (symbol axios.http.currentReq), which keeps that request's whole answer alive until the socket
    // is reused or closed: up to one answer (tens of MB during a bootstrap) per pooled socket. A
    // cycle makes a handful of queries, so a new connection per query costs nothing measurable.
    const httpsAgent = new https.Agent({
      keepAlive: false,
      ca: options.caFile ? readFileSync(options.caFile) : undefined,
      rejectUnauthorized: !options.insecureSkipVerify,
    });
    const httpAgent = new http.Agent({ keepAlive: false });
    const onRequest = (config: InternalAxiosRequestConfig): InternalAxiosRequestConfig => {
      config.httpAgent = httpAgent;
      config.httpsAgent = httpsAgent;
      const bearer = token ? token.current() : options.bearerToken;
      if (bearer) config.headers.set('Authorization', `Bearer ${bearer}`);
      const ctx = this.context.getStore();
      if (ctx?.onSeries) {
        // The body comes as a stream, split into series by onResponse (matrix-stream.ts).
        config.responseType = 'stream';
        config.transformResponse = [(data: unknown) => data];
        return config;
      }
      config.transformResponse = [
        (data: unknown) => {
          if (typeof data !== 'string') return data;
          if (ctx) ctx.bytes += Buffer.byteLength(data);
          try {
            return JSON.parse(data) as unknown;
          } catch {
            return data;
          }
        },
      ];
      return config;
    };
    const note = (response: AxiosResponse | undefined) => {
      const ctx = this.context.getStore();
      if (ctx && response) ctx.answer = { status: response.status, contentType: String(response.headers['content-type'] ?? '') };
    };
    const onResponse = async (response: AxiosResponse): Promise<AxiosResponse> => {
      note(response);
      const streamed = this.context.getStore();
      if (streamed?.onSeries && isReadable(response.data)) response.data = await splitAnswer(response.data, streamed, streamed.onSeries);
      const warnings = (response.data as { warnings?: unknown } | undefined)?.warnings;
      const ctx = this.context.getStore();
      if (ctx && Array.isArray(warnings)) ctx.warnings.push(...warnings.map(String));
      return response;
    };
    const onError = async (error: unknown): Promise<never> => {
      const response = (error as { response?: AxiosResponse } | null)?.response;
      note(response);
      // A streamed query's error answer: read its (small) body so the server's words are kept.
      const ctx = this.context.getStore();
      if (response && isReadable(response.data)) response.data = await readWhole(response.data, ctx);
      if (ctx?.answer && typeof response?.data === 'string') ctx.answer.text = response.data.trim().split('\n')[0]!.slice(0, 200);
      return Promise.reject(error as Error);
    };
    const base = {
      endpoint: options.url,
      baseURL: '/api/v1/',
      headers: { ...options.headers },
      auth: options.basicAuth,
      timeout: this.options.timeoutMs,
      withCredentials: false,
      requestInterceptor: { onFulfilled: onRequest },
      responseInterceptor: { onFulfilled: onResponse, onRejected: onError },
    };
    this.get = new PrometheusDriver({ ...base, preferPost: false });
    this.post = new PrometheusDriver({ ...base, preferPost: true });
  }

  /** An instant query evaluated at `at` (ms). */
  instant(query: string, at: number): Promise<QueryAnswer> {
    return this.run('instant', query, (driver) => driver.instantQuery(query, at));
  }

  /** A range query from `start` to `end` (ms) every `stepMs`. */
  range(query: string, start: number, end: number, stepMs: number): Promise<QueryAnswer> {
    return this.run('range', query, (driver) => driver.rangeQuery(query, start, end, stepMs / 1000));
  }

  /**
   * A range query whose answer is decoded as it arrives: `begin()` is called once per attempt (a
   * retry starts over) and returns the receiver of that attempt's series, one parsed element of
   * `data.result` at a time; the answer as a whole is never held (matrix-stream.ts).
   */
  rangeStreamed(query: string, start: number, end: number, stepMs: number, begin: () => (item: unknown) => void): Promise<QueryAnswer<void>> {
    return this.run('range', query, (driver) => driver.rangeQuery(query, start, end, stepMs / 1000).then(() => undefined), begin);
  }

  /**
   * The label sets of the series matching `selectors` with samples between `start` and `end` (ms),
   * read from the index: no samples are loaded, so this stays cheap over days of history where a
   * `last_over_time(...[8d])` would hit the server's max-samples limit.
   */
  series(selectors: readonly string[], start: number, end: number): Promise<QueryAnswer<Metric[]>> {
    return this.run('series', selectors.join(' '), (driver) => driver.series([...selectors], start, end));
  }

  private async run<T>(
    kind: QueryKind,
    query: string,
    call: (driver: PrometheusDriver) => Promise<T>,
    begin?: () => (item: unknown) => void,
  ): Promise<QueryAnswer<T>> {
    const driver = query.length > this.options.postAboveChars ? this.post : this.get;
    const started = performance.now();
    let bytes = 0;
    try {
      const answer = await pRetry(
        async () => {
          const ctx: CallContext = { bytes: 0, warnings: [], ...(begin ? { onSeries: begin() } : {}) };
          this.stats.queries++;
          try {
            const result = await this.context.run(ctx, () => call(driver));
            return { result, warnings: ctx.warnings };
          } catch (raw) {
            throw wrapPrometheusError(raw, query, this.options.url, ctx.answer);
          } finally {
            bytes += ctx.bytes;
            this.stats.bytes += ctx.bytes;
          }
        },
        {
          retries: this.options.retries,
          factor: 2,
          minTimeout: this.options.retryMinDelayMs,
          maxTimeout: this.options.retryMaxDelayMs,
          randomize: true,
          shouldRetry: ({ error }) => (error as MetricsSourceError).retryable === true,
          onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
            const willRetry = retriesLeft > 0 && (error as MetricsSourceError).retryable === true;
            if (willRetry) {
              this.stats.retries++;
              // One short line per retry; the error object (stack, cause chain) only at debug level.
              if (this.log.isLevelEnabled('debug')) this.log.debug({ err: error, attempt: attemptNumber, retriesLeft }, 'Prometheus query failed, retrying');
              else this.log.info({ error: error.message, attempt: attemptNumber, retriesLeft }, 'Prometheus query failed, retrying');
            }
          },
        },
      );
      this.observer({ kind, durationMs: performance.now() - started, bytes });
      return answer;
    } catch (err) {
      this.stats.failures++;
      const error = err as MetricsSourceError;
      this.observer({ kind, durationMs: performance.now() - started, bytes, error });
      throw error;
    }
  }
}

function isReadable(data: unknown): data is Readable {
  return data instanceof Readable;
}

/** Feeds a streamed answer through the splitter; returns its skeleton (the answer without series). */
async function splitAnswer(body: Readable, ctx: CallContext, onSeries: (item: unknown) => void): Promise<unknown> {
  const splitter = new MatrixStreamSplitter(onSeries);
  for await (const chunk of body as AsyncIterable<Buffer>) {
    ctx.bytes += chunk.length;
    splitter.write(chunk);
  }
  return splitter.end();
}

/** A whole (error) body, parsed as JSON when it is. */
async function readWhole(body: Readable, ctx: CallContext | undefined): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) parts.push(chunk);
  const text = Buffer.concat(parts).toString('utf8');
  if (ctx) ctx.bytes += Buffer.byteLength(text);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
