/**
 * One API request as plain JSON over the kubeconfig's connection and credentials (node's https,
 * `KubeConfig.applyToHTTPSOptions`: CA, client certificate, token, exec and auth providers), with
 * one keep-alive agent per KubeConfig, for calls made by the thousand where client-node's typed
 * clients cost more CPU than the request (decision 0237): they parse every answer into typed
 * objects and build a fetch request, an agent and middleware per call. Answers outside 2xx are
 * thrown as the `ApiException` client-node's typed clients throw (code, body text, headers; 401
 * without a body), so they are classified and logged as before (errors.ts); a failed connection
 * throws an error worded as client-node's, with node's error (its `code`, e.g. ECONNRESET) as cause.
 * An HTTP proxy from the kubeconfig is not used (as for the watch caches' lists).
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';
import { ApiException, type KubeConfig } from '@kubernetes/client-node';

/** What to send. */
export interface KubeRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path and query, e.g. `/api/v1/namespaces/shop/events` (already encoded). */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Content type of the body (default `application/json`; a patch names its kind). */
  contentType?: string;
}

/** The answer of a 2xx request: its status and body text (not parsed: most callers do not need it). */
export interface KubeAnswer {
  status: number;
  text: string;
}

/**
 * The User-Agent client-node's typed clients send (node-fetch's): an API server names the field
 * manager of a write without `fieldManager` (events, evictions) after it, so it stays the same.
 */
const USER_AGENT = 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)';

const agents = new WeakMap<KubeConfig, { https: HttpsAgent; http: HttpAgent }>();

function agentsOf(kubeConfig: KubeConfig): { https: HttpsAgent; http: HttpAgent } {
  let a = agents.get(kubeConfig);
  if (!a) {
    // Sockets are pooled by TLS options too (CA, certificate), so one agent serves any of them.
    a = { https: new HttpsAgent({ keepAlive: true }), http: new HttpAgent({ keepAlive: true }) };
    agents.set(kubeConfig, a);
  }
  return a;
}

/** Sends the request; resolves with a 2xx answer, throws `ApiException` for any other status. */
export async function kubeRequest(kubeConfig: KubeConfig, req: KubeRequest): Promise<KubeAnswer> {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const url = new URL(req.path, cluster.server.endsWith('/') ? cluster.server : `${cluster.server}/`);
  const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body), 'utf8');
  const headers: Record<string, string | number> = { accept: 'application/json', 'user-agent': USER_AGENT };
  if (payload) {
    headers['content-type'] = req.contentType ?? 'application/json';
    headers['content-length'] = payload.length;
  }
  const options: RequestOptions = { method: req.method, headers };
  await kubeConfig.applyToHTTPSOptions(options);
  const plain = url.protocol === 'http:';
  options.agent = plain ? agentsOf(kubeConfig).http : agentsOf(kubeConfig).https;
  const send = plain ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) {
          const answerHeaders = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
          // as client-node's generated clients build it
          reject(status === 401 ? new ApiException(status, 'Unauthorized', undefined, answerHeaders) : new ApiException(status, 'Unknown API Status Code!', text, answerHeaders));
          return;
        }
        resolve({ status, text });
      });
    });
    request.on('error', (err: Error & { code?: string }) => reject(Object.assign(new Error(`request to ${url.href} failed, reason: ${err.message}`, { cause: err }), { code: err.code })));
    request.end(payload);
  });
}
