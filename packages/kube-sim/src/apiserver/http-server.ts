/**
 * The HTTP shell of the API server: authentication, extra routes (e.g. `/metrics/...`, no auth),
 * discovery, authorization, fault injection, then the request pipeline or a watch stream.
 * Every error is answered as a `Status` object; 429s carry `Retry-After`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { parse as parseYaml } from 'yaml';
import type { CertificatePair } from './certificates.ts';
import type { Logger } from '../logger.ts';
import { checkWatchOptions } from './watch-options.ts';
import { ApiError, forbidden, pathNotFound, unauthorized } from './api-error.ts';
import type { TokenAuthenticator } from './authentication.ts';
import { coreVersionsDocument, groupDocumentFor, groupListDocument, resourceListDocument, versionDocument, type ServerVersionInfo } from './discovery.ts';
import type { FaultInjector } from './fault-injection.ts';
import { metricVerb, type RequestMetrics } from './request-metrics.ts';
import { parseFieldSelector } from './field-selector.ts';
import { parseLabelSelector } from './label-selector.ts';
import type { ObjectStore } from './object-store.ts';
import { openApiGroupVersion, openApiRoot } from './openapi.ts';
import { parsePatchBody, patchTypeOf } from './patch.ts';
import { decodeProtobufBody, isProtobuf } from './protobuf-body.ts';
import type { Authorizer } from './rbac-authorizer.ts';
import type { ApiRequest, UserInfo, Verb } from './request.ts';
import { parseRequestInfo, type RequestInfo } from './request-info.ts';
import type { RequestPipeline } from './request-pipeline.ts';
import type { ResourceRegistry } from './resource-registry.ts';
import type { SubresourceRegistry } from './subresource.ts';
import { toTable, wantsTable } from './table.ts';
import { WatchSession } from './watch-session.ts';

/** A handler for an extra non-resource route. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

/** What the HTTP shell needs. */
export interface HttpShellDependencies {
  store: ObjectStore;
  registry: ResourceRegistry;
  subresources: SubresourceRegistry;
  pipeline: RequestPipeline;
  authenticator: TokenAuthenticator;
  faults: FaultInjector;
  logger: Logger;
  version: ServerVersionInfo;
  /** Current switches (read on every request so they can be flipped at run time). */
  settings: () => { authentication: boolean; authorization: boolean; bookmarkIntervalMs: number };
  authorizer: () => Authorizer;
  routes: Map<string, RouteHandler>;
  serverAddress: () => string;
  /** Clock in ms since epoch (for ages in tables). */
  now: () => number;
  /** Serve HTTPS with this certificate (plain HTTP when absent). */
  tls?: CertificatePair;
  /** Where requests are counted (also served at `/metrics`). */
  metrics: RequestMetrics;
}

const RESOURCE_VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection']);

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, err: ApiError): void {
  const headers: Record<string, string> = {};
  if ((err.details?.retryAfterSeconds ?? 0) > 0) headers['Retry-After'] = String(err.details?.retryAfterSeconds);
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, err.code, err.toStatus(), headers);
}

/** The real server's request body limit (3 MiB). */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${MAX_BODY_BYTES}`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** `299 - "text"`, the Warning header format of the real server (quotes and backslashes escaped). */
export function warningHeader(text: string): string {
  return `299 - "${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Warnings of requests still being served, so error responses carry them too. */
const pendingWarnings = new WeakMap<IncomingMessage, string[]>();

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Creates the node HTTP server (not yet listening). */
export function createHttpShell(deps: HttpShellDependencies): { server: Server; closeWatches: () => void } {
  const watches = new Set<WatchSession>();
  const log = deps.logger.child({ component: 'kube-sim-apiserver' });

  function authenticate(req: IncomingMessage): UserInfo {
    const user = deps.authenticator.authenticate(req.headers.authorization);
    if (user) return user;
    if (deps.settings().authentication) throw unauthorized();
    return { username: 'kube-sim-admin', groups: ['system:masters', 'system:authenticated'] };
  }

  function authorize(user: UserInfo, info: RequestInfo): void {
    if (!deps.settings().authorization) return;
    const verb = info.isResourceRequest ? String(info.verb) : info.verb === 'head' ? 'get' : String(info.verb);
    const attributes = {
      user,
      verb,
      isResourceRequest: info.isResourceRequest,
      group: info.group,
      resource: info.resource,
      subresource: info.subresource ?? '',
      namespace: info.namespace ?? '',
      name: info.name ?? '',
      path: info.path,
    };
    const decision = deps.authorizer().authorize(attributes);
    if (decision.allowed) return;
    if (!info.isResourceRequest) throw new ApiError(403, 'Forbidden', `forbidden: ${decision.reason}`, {});
    const name = info.verb === 'create' && !info.subresource ? undefined : info.name;
    const target = name === undefined ? { resource: info.resource, group: info.group } : { resource: info.resource, group: info.group, name };
    throw forbidden(target, decision.reason);
  }

  function serveNonResource(res: ServerResponse, info: RequestInfo): void {
    const parts = info.path.split('/').filter((p) => p.length > 0);
    let body: unknown;
    if (info.path === '/version') body = versionDocument(deps.version);
    else if (info.path === '/api') body = coreVersionsDocument(deps.serverAddress());
    else if (info.path === '/apis') body = groupListDocument(deps.registry);
    else if (parts[0] === 'api' && parts.length === 2)
      body = resourceListDocument(
        deps.registry,
        deps.subresources,
        '',
        parts[1] as string,
        (t, s) => deps.subresources.get(t.group === '' ? t.plural : `${t.plural}.${t.group}`, s)?.discovery,
      );
    else if (parts[0] === 'apis' && parts.length === 2) body = groupDocumentFor(deps.registry, parts[1] as string);
    else if (parts[0] === 'apis' && parts.length === 3)
      body = resourceListDocument(
        deps.registry,
        deps.subresources,
        parts[1] as string,
        parts[2] as string,
        (t, s) => deps.subresources.get(t.group === '' ? t.plural : `${t.plural}.${t.group}`, s)?.discovery,
      );
    else if (info.path === '/metrics') {
      void deps.metrics.registry.metrics().then((text) => {
        res.writeHead(200, { 'Content-Type': deps.metrics.registry.contentType });
        res.end(text);
      });
      return;
    } else if (info.path === '/openapi/v3') body = openApiRoot(deps.registry);
    else if (parts[0] === 'openapi' && parts[1] === 'v3' && parts[2] === 'api' && parts.length === 4)
      body = openApiGroupVersion(deps.registry, '', parts[3] as string);
    else if (parts[0] === 'openapi' && parts[1] === 'v3' && parts[2] === 'apis' && parts.length === 5)
      body = openApiGroupVersion(deps.registry, parts[3] as string, parts[4] as string);
    else if (info.path === '/healthz' || info.path === '/livez' || info.path === '/readyz') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }
    if (body === undefined) throw pathNotFound();
    sendJson(res, 200, body);
  }

  async function serveResource(req: IncomingMessage, res: ServerResponse, info: RequestInfo, url: URL, user: UserInfo): Promise<void> {
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    const warnings: string[] = [];
    pendingWarnings.set(req, warnings);
    const request: ApiRequest = { verb: info.verb as Verb, group: info.group, version: info.version, resource: info.resource, query, user, warnings };
    if (info.subresource !== undefined) request.subresource = info.subresource;
    if (req.headers['user-agent']) request.userAgent = req.headers['user-agent'];
    if (info.namespace !== undefined) request.namespace = info.namespace;
    if (info.name !== undefined) request.name = info.name;
    if (!RESOURCE_VERBS.has(request.verb)) throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
    const type = deps.pipeline.resolve(request);
    const decision = deps.faults.decide({
      username: user.username,
      verb: request.verb,
      resource: info.resource,
      group: info.group,
      subresource: info.subresource ?? '',
      namespace: info.namespace ?? '',
      name: info.name ?? '',
    });
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);
    if (decision.error) throw decision.error;
    if (request.verb === 'watch') {
      serveWatch(req, res, request, decision.dropWatchAfterMs, wantsTable(req.headers.accept));
      return;
    }
    const bytes = req.method === 'GET' || req.method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
    const raw = bytes.toString('utf8');
    if (bytes.length > 0 && isProtobuf(req.headers['content-type'])) {
      request.body = decodeProtobufBody(bytes);
    } else if (raw.length > 0) {
      if (request.verb === 'patch') {
        request.contentType = req.headers['content-type'] ?? '';
        const strategic = request.subresource ? true : type.strategicMerge;
        request.body = parsePatchBody(patchTypeOf(request.contentType, strategic), raw);
      } else {
        const yaml = (req.headers['content-type'] ?? '').startsWith('application/yaml');
        try {
          request.body = yaml ? parseYaml(raw) : JSON.parse(raw);
        } catch (err) {
          throw new ApiError(400, 'BadRequest', `error decoding body: ${(err as Error).message}`, undefined, { cause: err });
        }
      }
    }
    const response = await deps.pipeline.execute(request);
    const body =
      (request.verb === 'get' || request.verb === 'list') && !request.subresource && wantsTable(req.headers.accept)
        ? toTable(type, response.body, request.verb === 'list', deps.now())
        : response.body;
    for (const warning of warnings) res.appendHeader('Warning', warningHeader(warning));
    sendJson(res, response.status, body, response.headers);
  }

  function serveWatch(req: IncomingMessage, res: ServerResponse, request: ApiRequest, dropAfterMs: number | undefined, asTable: boolean): void {
    const type = deps.pipeline.resolve(request);
    const q = request.query;
    checkWatchOptions(q);
    const options = {
      type,
      version: request.version,
      labels: parseLabelSelector(q['labelSelector']),
      fields: parseFieldSelector(request.name !== undefined ? `metadata.name=${request.name}` : q['fieldSelector'], type.kind),
      allowWatchBookmarks: q['allowWatchBookmarks'] === 'true',
      sendInitialEvents: q['sendInitialEvents'] === 'true',
      bookmarkIntervalMs: deps.settings().bookmarkIntervalMs,
    } as ConstructorParameters<typeof WatchSession>[1];
    if (request.namespace !== undefined) options.namespace = request.namespace;
    if (q['resourceVersion'] !== undefined) options.resourceVersion = q['resourceVersion'];
    if (q['timeoutSeconds'] !== undefined) options.timeoutSeconds = Number(q['timeoutSeconds']);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache' });
    res.flushHeaders();
    const session = new WatchSession(
      deps.store,
      options,
      (event) => {
        if (res.writableEnded) return;
        // kubectl get -w asks for Tables: each object event then carries a one-row Table.
        const isObject = event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED';
        const wire = asTable && isObject ? { type: event.type, object: toTable(type, event.object, false, deps.now()) } : event;
        res.write(`${JSON.stringify(wire)}\n`);
      },
      () => {
        watches.delete(session);
        if (!res.writableEnded) res.end();
      },
    );
    watches.add(session);
    req.on('close', () => session.stop());
    res.on('close', () => session.stop());
    session.start();
    if (dropAfterMs !== undefined && !session.isClosed) {
      const timer = setTimeout(() => {
        session.stop();
        res.destroy();
      }, dropAfterMs);
      timer.unref();
    }
  }

  function count(req: IncomingMessage, res: ServerResponse, info: RequestInfo, user: UserInfo): void {
    const started = performance.now();
    const startedAt = Date.now();
    const verb = metricVerb(String(info.verb), req.headers['content-type']);
    const scope = info.name !== undefined ? 'resource' : info.namespace !== undefined ? 'namespace' : 'cluster';
    const fieldManager = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('fieldManager');
    const record = (): void =>
      deps.metrics.record({
        verb,
        group: info.group,
        version: info.version,
        resource: info.resource,
        subresource: info.subresource ?? '',
        scope,
        code: res.statusCode,
        username: user.username,
        seconds: (performance.now() - started) / 1000,
        ...(info.namespace !== undefined ? { namespace: info.namespace } : {}),
        ...(info.name !== undefined ? { name: info.name } : {}),
        ...(req.headers['user-agent'] !== undefined ? { userAgent: req.headers['user-agent'] } : {}),
        ...(fieldManager ? { fieldManager } : {}),
        startedAt,
        endedAt: Date.now(),
      });
    res.once(verb === 'WATCH' ? 'close' : 'finish', record);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    try {
      const route = deps.routes.get(url.pathname);
      if (route) {
        await route(req, res, url);
        return;
      }
      const user = authenticate(req);
      const info = parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
      if (info.isResourceRequest) count(req, res, info, user);
      authorize(user, info);
      if (!info.isResourceRequest) serveNonResource(res, info);
      else await serveResource(req, res, info, url, user);
    } catch (err) {
      if (err instanceof ApiError) {
        for (const warning of pendingWarnings.get(req) ?? []) if (!res.headersSent) res.appendHeader('Warning', warningHeader(warning));
        sendError(res, err);
        return;
      }
      log.error({ err, method: req.method, url: req.url }, 'request failed');
      sendError(res, new ApiError(500, 'InternalError', `Internal error occurred: ${(err as Error).message}`));
    }
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    void handle(req, res);
  };
  const server: Server = deps.tls ? createHttpsServer({ cert: deps.tls.certPem, key: deps.tls.keyPem }, listener) : createServer(listener);
  return {
    server,
    closeWatches: () => {
      for (const session of [...watches]) session.stop();
    },
  };
}
