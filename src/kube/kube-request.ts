/**
 * Tailor's one way of sending a request to the API server (decision 0274): the URL from the
 * kubeconfig's current cluster, credentials and TLS from `applyToHTTPSOptions` (token, client
 * certificate, CA, proxy agent), node-fetch to send (as client-node does). Answers outside 2xx are thrown as
 * client-node `ApiException`s (HTTP code, body text, lower-case headers), as client-node's
 * generated APIs throw them, so errors.ts classifies both alike. Typed answers go through
 * client-node's `ObjectSerializer`, so callers get its object model (times as Date objects).
 * This replaces client-node's generated API classes, which cost ~3 MiB of heap to load.
 */
import { Agent, type RequestOptions } from 'node:https';
import fetch from 'node-fetch';
import { ApiException, type KubeConfig } from '@kubernetes/client-node';
// The serializer only (the package has no exports map): its models without the generated API classes.
import { ObjectSerializer } from '@kubernetes/client-node/dist/gen/models/ObjectSerializer.js';

/** The Accept header of client-node's generated APIs. */
export const ACCEPT = 'application/json, */*;q=0.8';

/** One request. */
export interface KubeRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The API path, already encoded: `/api/v1/namespaces/shop/pods`. */
  path: string;
  /** Query parameters; undefined values are left out, the others sent as strings (`force=true`). */
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** The body, already serialized (JSON text). */
  body?: string;
  /** Default `application/json` when there is a body. */
  contentType?: string;
  /** Default {@link ACCEPT}. */
  accept?: string;
}

/** A 2xx answer. */
export interface KubeResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

/** Options of a {@link KubeClient}. */
export interface KubeClientOptions {
  /**
   * Reuse connections: one keep-alive agent, made from the first request's TLS options (CA,
   * client certificate), replaces the fresh agent the kubeconfig builds for each request (a TLS
   * handshake is ~2 ms of CPU). Proxy agents are left alone. For long-running loops.
   */
  keepAlive?: boolean;
}

/** Sends requests over one kubeconfig. */
export class KubeClient {
  private shared: Agent | undefined;

  constructor(
    readonly kubeConfig: KubeConfig,
    private readonly options: KubeClientOptions = {},
  ) {}

  /** Sends one request; throws `ApiException` outside 2xx, the transport's error when no answer came. */
  async send(req: KubeRequest): Promise<KubeResponse> {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('the kubeconfig has no current cluster');
    const base = cluster.server.endsWith('/') ? cluster.server : `${cluster.server}/`;
    const url = new URL(req.path.replace(/^\//, ''), base);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    // As client-node's RequestContext.getUrl: a trailing slash is dropped (`/version/` is sent as `/version`).
    const href = url.href.endsWith('/') ? url.href.slice(0, -1) : url.href;
    const options: RequestOptions = { method: req.method, headers: {} };
    await this.kubeConfig.applyToHTTPSOptions(options);
    let agent = options.agent;
    if (this.options.keepAlive && agent instanceof Agent && agent.constructor === Agent) {
      this.shared ??= new Agent({ ...agent.options, keepAlive: true });
      agent = this.shared;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(options.headers ?? {})) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
    if (options.auth) headers['Authorization'] = `Basic ${Buffer.from(options.auth).toString('base64')}`;
    headers['Accept'] = req.accept ?? ACCEPT;
    if (req.body !== undefined) headers['Content-Type'] = req.contentType ?? 'application/json';
    // node-fetch, as client-node's generated APIs send (same headers, same connection handling).
    const res = await fetch(href, { method: req.method, headers, ...(req.body === undefined ? {} : { body: req.body }), ...(agent ? { agent } : {}) });
    const flat: Record<string, string> = {};
    res.headers.forEach((value, name) => (flat[name] = value));
    const answer: KubeResponse = { status: res.status, headers: flat, text: await res.text() };
    if (answer.status >= 200 && answer.status <= 299) return answer;
    // As client-node's generated APIs: 401 without a body, anything else with the body text.
    if (answer.status === 401) throw new ApiException(401, 'Unauthorized', undefined, answer.headers);
    throw new ApiException(answer.status, 'Unknown API Status Code!', answer.text, answer.headers);
  }

  /** Sends and returns the answer as client-node's object model of `type` (`V1Pod`, `any` for plain JSON). */
  async typed<T>(req: KubeRequest, type: string): Promise<T> {
    const res = await this.send(req);
    return ObjectSerializer.deserialize(parseBody(res), type, '') as T;
  }
}

/** The body of an answer parsed by its media type (JSON when the server named none). */
export function parseBody(res: KubeResponse): unknown {
  const mediaType = ObjectSerializer.normalizeMediaType(res.headers['content-type']) ?? 'application/json';
  return ObjectSerializer.parse(res.text, mediaType);
}

/** A body as client-node sends it: serialized by its model `type` (Date -> RFC 3339), then JSON. */
export function serializeBody(body: unknown, type: string): string | undefined {
  const data: unknown = ObjectSerializer.serialize(body, type, '');
  return data === undefined ? undefined : JSON.stringify(data);
}
