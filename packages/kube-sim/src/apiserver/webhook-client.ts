/**
 * Calls one admission webhook over HTTPS with an AdmissionReview v1 and returns its response:
 * the CA from `caBundle` verifies the server (no caBundle: the system roots), `timeoutSeconds`
 * (default 10) bounds the call and is sent as `?timeout=10s` like the real server does, and a
 * service reference is resolved through an injected resolver (the sim has no cluster network).
 * Certificates are held to Go's crypto/x509 like the real server holds them: a caBundle with no
 * certificate Go can parse is "could not get REST client: unable to load root certificates: ...",
 * a server certificate Go cannot parse is "tls: failed to parse certificate from server: ...".
 */
import { request as httpsRequest } from 'node:https';
import type { TLSSocket, PeerCertificate, DetailedPeerCertificate } from 'node:tls';
import { goX509ParseError } from 'kube-basics/go-x509-strictness';
import { readRootCertPool } from './root-cert-pool.ts';

/** `clientConfig` of a webhook. */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  caBundle?: string;
}

/** Maps a service reference to a loopback address, e.g. tailor/tailor-webhook:443 -> 127.0.0.1:9443. */
export type ServiceResolver = (namespace: string, name: string, port: number) => { host: string; port: number } | undefined;

/** The `response` of an AdmissionReview. */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: { code?: number; message?: string; reason?: string; status?: string };
  patch?: string;
  patchType?: string;
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

/** Why a call failed (network, timeout, TLS, bad response); the message is shown to the client. */
export class WebhookCallError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookCallError';
  }
}

/** Go's refusal of a certificate in the server's chain, or undefined. */
function serverChainRefusal(leaf: DetailedPeerCertificate): string | undefined {
  const seen = new Set<PeerCertificate>();
  for (let cert: DetailedPeerCertificate | undefined = leaf; cert?.raw && !seen.has(cert); cert = cert.issuerCertificate) {
    seen.add(cert);
    const refusal = goX509ParseError(cert.raw);
    if (refusal) return refusal;
  }
  return undefined;
}

/** Posts the review; resolves with the parsed response or rejects with WebhookCallError. */
export function callWebhook(config: WebhookClientConfig, review: unknown, timeoutSeconds: number, resolveService: ServiceResolver): Promise<AdmissionResponse> {
  let target: URL;
  let servername: string | undefined;
  if (config.url) {
    target = new URL(config.url);
  } else if (config.service) {
    const s = config.service;
    const resolved = resolveService(s.namespace, s.name, s.port ?? 443);
    if (!resolved) return Promise.reject(new WebhookCallError(`service "${s.namespace}/${s.name}" cannot be resolved`));
    target = new URL(`https://${resolved.host}:${resolved.port}${s.path ?? '/'}`);
    servername = `${s.name}.${s.namespace}.svc`;
  } else {
    return Promise.reject(new WebhookCallError('webhook has no url or service'));
  }
  let roots: string[] | undefined;
  if (config.caBundle) {
    const pool = readRootCertPool(Buffer.from(config.caBundle, 'base64').toString('utf8'));
    if (!pool.ok) return Promise.reject(new WebhookCallError(`could not get REST client: unable to load root certificates: ${pool.error}`));
    roots = pool.certificates;
  }
  target.searchParams.set('timeout', `${timeoutSeconds}s`);
  const shown = config.service
    ? `https://${config.service.name}.${config.service.namespace}.svc:${config.service.port ?? 443}${config.service.path ?? '/'}?timeout=${timeoutSeconds}s`
    : target.toString();
  const payload = JSON.stringify(review);
  return new Promise((resolve, reject) => {
    const options: Parameters<typeof httpsRequest>[1] = {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(payload) },
      agent: false,
    };
    if (roots) options.ca = roots;
    if (servername) options.servername = servername;
    const req = httpsRequest(target, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) {
          reject(new WebhookCallError(`failed to call webhook: an error on the server ("${text.slice(0, 200)}") has prevented the request from succeeding`));
          return;
        }
        try {
          const body = JSON.parse(text) as { response?: AdmissionResponse };
          if (!body.response) throw new Error('response is missing');
          resolve(body.response);
        } catch (err) {
          reject(new WebhookCallError(`received invalid webhook response: ${(err as Error).message}`, { cause: err }));
        }
      });
    });
    req.on('socket', (socket) => {
      (socket as TLSSocket).once('secureConnect', () => {
        const refusal = serverChainRefusal((socket as TLSSocket).getPeerCertificate(true));
        if (refusal) req.destroy(new Error(`tls: failed to parse certificate from server: ${refusal}`));
      });
    });
    const timer = setTimeout(() => req.destroy(new Error('context deadline exceeded')), timeoutSeconds * 1000);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(new WebhookCallError(`failed to call webhook: Post "${shown}": ${err.message}`, { cause: err }));
    });
    req.end(payload);
  });
}
