/**
 * The HTTP server of `tailor run`: `/metrics` (the prom-client registry in the text format),
 * `/healthz` (liveness) and `/readyz` (readiness). Each health endpoint answers 200 `ok`, or 503
 * with one line per failing check, from the registered {@link HealthCheck}s.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { moduleLogger, type Logger } from '../observability/logger.ts';
import type { HealthCheck } from './loop-health.ts';
import type { Clock } from '../kube/clock.ts';

export interface HealthServerOptions {
  registry: Registry;
  checks: () => readonly HealthCheck[];
  host: string;
  /** 0 = a free port. */
  port: number;
  clock: Clock;
  logger: Logger;
}

/** A listening server. */
export interface RunningHealthServer {
  /** `http://host:port`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startHealthServer(o: HealthServerOptions): Promise<RunningHealthServer> {
  const log = moduleLogger(o.logger, 'http');
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/metrics') {
      o.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': o.registry.contentType }).end(text),
        (err: unknown) => {
          log.error({ err }, 'collecting metrics failed');
          res.writeHead(500, { 'content-type': 'text/plain' }).end('collecting metrics failed\n');
        },
      );
      return;
    }
    if (path === '/healthz' || path === '/readyz') {
      const now = o.clock();
      const problems = o
        .checks()
        .map((c) => (path === '/healthz' ? c.live(now) : c.ready(now)))
        .filter((p): p is string => p !== undefined);
      res
        .writeHead(problems.length === 0 ? 200 : 503, { 'content-type': 'text/plain; charset=utf-8' })
        .end(problems.length === 0 ? 'ok\n' : `${problems.join('\n')}\n`);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /metrics, /healthz or /readyz\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  log.info({ host: o.host, port }, 'serving /metrics, /healthz and /readyz');
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
