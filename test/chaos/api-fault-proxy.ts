/**
 * API errors and latency between Tailor and the API server, for the chaos lane's `api-errors`
 * fault: an HTTPS proxy (its own serving certificate; loopback or the node's bridge address only)
 * that passes each request through to the API server unchanged (bearer tokens included: Tailor's
 * pods authenticate with their service account's token) unless a fault is set, when it answers a
 * share of requests itself with 500, 429 (Retry-After: 1) or 503 as an overloaded API server does,
 * delays the rest, and can cut every open watch at once. The faults change while it runs (`set`).
 */
import { createServer, request, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the proxy does to requests now. */
export interface ApiFaults {
  /** The share of requests answered with an error (0-1). */
  readonly errorRate: number;
  /** Added before each request passed on (ms). */
  readonly latencyMs: number;
}

export const NO_FAULTS: ApiFaults = { errorRate: 0, latencyMs: 0 };

/** The errors it answers with, in turn. */
const ERRORS = [
  { code: 500, reason: 'InternalError', message: 'an error on the server ("chaos") has prevented the request from succeeding' },
  { code: 429, reason: 'TooManyRequests', message: 'the server has received too many requests and has asked us to try again later' },
  { code: 503, reason: 'ServiceUnavailable', message: 'the server is currently unable to handle the request' },
] as const;

export interface ApiFaultProxy {
  readonly url: string;
  set(faults: Partial<ApiFaults>): void;
  /** Ends every watch open through the proxy (the client sees its watch end and must watch again). */
  cutWatches(): number;
  /** Requests passed on, answered with an error, and watches cut so far. */
  readonly counts: { passed: number; failed: number; cut: number };
  close(): Promise<void>;
}

export interface ApiFaultProxyOptions {
  /** The API server's URL (https). */
  readonly upstream: string;
  /** The CA that signed the API server's certificate (PEM). */
  readonly upstreamCa: string;
  /** The proxy's serving certificate and key (PEM). */
  readonly cert: string;
  readonly key: string;
  /** The address to listen on (127.0.0.1, or the node's bridge address for pods). */
  readonly host?: string;
  /** A uniform draw in [0, 1) (tests inject one). */
  readonly random?: () => number;
}

export async function startApiFaultProxy(options: ApiFaultProxyOptions): Promise<ApiFaultProxy> {
  const upstream = new URL(options.upstream);
  const random = options.random ?? Math.random;
  let faults: ApiFaults = NO_FAULTS;
  let turn = 0;
  const counts = { passed: 0, failed: 0, cut: 0 };
  const watches = new Set<ServerResponse>();

  function fail(res: ServerResponse): void {
    const e = ERRORS[turn++ % ERRORS.length]!;
    counts.failed += 1;
    res.writeHead(e.code, { 'Content-Type': 'application/json', ...(e.code === 429 ? { 'Retry-After': '1' } : {}) });
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: e.message, reason: e.reason, code: e.code }));
  }

  function pass(req: IncomingMessage, res: ServerResponse): void {
    counts.passed += 1;
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
        ca: options.upstreamCa,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        // At once: a watch with nothing to say sends no body for minutes, and a client waits for the
        // headers to call its watch started (Tailor's admission webhook never listened without this).
        res.flushHeaders();
        if (/[?&]watch=(true|1)/.test(req.url ?? '')) {
          watches.add(res);
          res.on('close', () => watches.delete(res));
        }
        answer.pipe(res);
      },
    );
    out.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`chaos proxy: ${error.message}`);
    });
    res.on('close', () => out.destroy());
    req.pipe(out);
  }

  const server: Server = createServer({ cert: options.cert, key: options.key }, (req, res) => {
    if (faults.errorRate > 0 && random() < faults.errorRate) {
      req.resume();
      fail(res);
    } else if (faults.latencyMs > 0) {
      setTimeout(() => pass(req, res), faults.latencyMs);
    } else pass(req, res);
  });
  await new Promise<void>((ok, bad) => server.once('error', bad).listen(0, options.host ?? '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: `https://${options.host ?? '127.0.0.1'}:${port}`,
    set(change) {
      faults = { ...faults, ...change };
    },
    cutWatches() {
      const n = watches.size;
      for (const w of watches) w.destroy();
      watches.clear();
      counts.cut += n;
      return n;
    },
    counts,
    close: () =>
      new Promise<void>((ok) => {
        for (const w of watches) w.destroy();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
