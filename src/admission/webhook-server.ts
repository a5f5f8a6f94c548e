/**
 * The HTTPS server the API server calls: `POST /mutate-pods` (pod CREATE reviews),
 * `POST /validate-vpa` (VPA CREATE/UPDATE reviews), `POST /admit` (either, routed by the review's
 * resource, for the upstream layout's single webhook; any other resource is allowed unchanged and
 * not counted), `GET /healthz` (200 while serving). TLS 1.2 at
 * least; `setCredentials` swaps the certificate for new connections without a restart. Bodies over
 * 8 MiB get 413, non-JSON bodies and bodies that are not AdmissionReview v1 requests 400, a
 * handler that throws 500 (the API server then applies the failurePolicy). Every answered review
 * is counted and timed, and logged through the review's own log line.
 *
 * Idle connections are kept for {@link DEFAULT_IDLE_TIMEOUT_MS}, longer than the API server keeps
 * them (90 s, Go's default transport): the client closes an idle connection first. With Node's
 * default (5 s) the server closed connections the API server was about to reuse; the review sent
 * on one got "connection reset by peer", and the API server, which does not retry a POST,
 * admitted the pod unpatched (failurePolicy Ignore) — seen once in upstream's e2e suite.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../observability/logger.ts';
import type { AdmissionMetrics, WebhookName } from './admission-metrics.ts';
import { allow, BadReviewError, readAdmissionRequest, reviewResponse, type AdmissionRequest, type AdmissionResponse } from './admission-review.ts';
import type { ReviewLog } from './pod-review.ts';
import type { ServingCredentials } from './serving-credentials.ts';
import { ADMIT_PATH, MUTATE_PODS_PATH, VALIDATE_VPA_PATH } from './webhook-configurations.ts';

const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** How long an idle keep-alive connection stays open: 120 s, above the API server's 90 s. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** Answers one review: the response, the metric outcome and the log line. */
export type ReviewHandler = (request: AdmissionRequest) => { response: AdmissionResponse; outcome: string; log: ReviewLog; startupBoost?: boolean };

export interface WebhookServerOptions {
  credentials: ServingCredentials;
  mutatePods: ReviewHandler;
  validateVpa: ReviewHandler;
  logger: Logger;
  metrics: AdmissionMetrics;
  /** Idle keep-alive connections close after this (default {@link DEFAULT_IDLE_TIMEOUT_MS}). */
  idleTimeoutMs?: number;
}

class BodyTooLargeError extends Error {}

/** Which webhook a review sent to /admit is for: by its resource, else by its kind. Pure. */
export function routeByResource(request: Pick<AdmissionRequest, 'resource' | 'kind'>): WebhookName | undefined {
  const resource = request.resource?.resource;
  const group = request.resource?.group ?? request.kind?.group ?? '';
  if (resource === 'pods' || (resource === undefined && request.kind?.kind === 'Pod')) return group === '' ? 'mutate-pods' : undefined;
  if (resource === 'verticalpodautoscalers' || (resource === undefined && request.kind?.kind === 'VerticalPodAutoscaler'))
    return group === 'autoscaling.k8s.io' ? 'validate-vpa' : undefined;
  return undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLargeError(`body over ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json' });
  res.end(text);
}

export class WebhookServer {
  private readonly server: Server;
  private readonly logger: Logger;

  constructor(private readonly options: WebhookServerOptions) {
    this.logger = options.logger;
    this.server = createServer({ cert: options.credentials.cert, key: options.credentials.key, minVersion: 'TLSv1.2' }, (req, res) => {
      void this.handle(req, res);
    });
    this.server.keepAliveTimeout = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    // Headers of a request on a kept connection must not be cut by the shorter default (60 s).
    this.server.headersTimeout = this.server.keepAliveTimeout + 1000;
    this.server.on('tlsClientError', (err) => this.logger.debug({ err }, 'TLS handshake failed'));
  }

  /** Listens; resolves with the bound port (port 0 = a free one). */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /** How long an idle keep-alive connection stays open. */
  get idleTimeoutMs(): number {
    return this.server.keepAliveTimeout;
  }

  get listening(): boolean {
    return this.server.listening;
  }

  /** Serves new connections with these credentials. */
  setCredentials(credentials: ServingCredentials): void {
    this.server.setSecureContext({ cert: credentials.cert, key: credentials.key, minVersion: 'TLSv1.2' });
  }

  /** Stops listening and closes every connection. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server.listening) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'https://webhook').pathname;
    if (path === '/healthz' && req.method === 'GET') return send(res, 200, 'ok');
    const handlers: Record<WebhookName, ReviewHandler> = { 'mutate-pods': this.options.mutatePods, 'validate-vpa': this.options.validateVpa };
    const paths: Record<string, WebhookName | 'admit'> = { [MUTATE_PODS_PATH]: 'mutate-pods', [VALIDATE_VPA_PATH]: 'validate-vpa', [ADMIT_PATH]: 'admit' };
    const target = paths[path];
    if (!target) return send(res, 404, 'not found');
    if (req.method !== 'POST') return send(res, 405, 'method not allowed');
    // Failures before the request is read count under the path's webhook (/admit: mutate-pods).
    const early: WebhookName = target === 'admit' ? 'mutate-pods' : target;
    let text: string;
    try {
      text = await readBody(req);
    } catch (err) {
      this.logger.warn({ err, webhook: early }, 'cannot read the review body');
      this.options.metrics.reviews.inc({ webhook: early, outcome: 'error' });
      if (!res.headersSent && !res.destroyed) send(res, err instanceof BodyTooLargeError ? 413 : 400, (err as Error).message);
      return;
    }
    const started = process.hrtime.bigint();
    let request: AdmissionRequest;
    try {
      request = readAdmissionRequest(JSON.parse(text) as unknown);
    } catch (err) {
      const message = err instanceof BadReviewError ? err.message : `invalid JSON: ${(err as Error).message}`;
      this.logger.warn({ err, webhook: early }, 'bad admission review');
      this.options.metrics.reviews.inc({ webhook: early, outcome: 'error' });
      return send(res, 400, message);
    }
    const webhook = target === 'admit' ? routeByResource(request) : target;
    if (!webhook) {
      this.logger.debug(
        { uid: request.uid, resource: request.resource, kind: request.kind },
        'a review of a resource Tailor does not handle; allowed unchanged',
      );
      return send(res, 200, reviewResponse(allow(request.uid)));
    }
    const handler = handlers[webhook];
    let result: ReturnType<ReviewHandler>;
    try {
      result = handler(request);
    } catch (err) {
      // Handlers do not throw by contract; if one does, the API server applies the failurePolicy.
      this.logger.error({ err, webhook, uid: request.uid }, 'the review failed');
      this.options.metrics.reviews.inc({ webhook, outcome: 'error' });
      return send(res, 500, 'internal error');
    }
    send(res, 200, reviewResponse(result.response));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    this.options.metrics.observe(webhook, result.outcome, seconds);
    if (result.startupBoost) this.options.metrics.startupBoosts.inc();
    this.logger[result.log.level]({ webhook, uid: request.uid, outcome: result.outcome, ...result.log.fields }, result.log.message);
  }
}
