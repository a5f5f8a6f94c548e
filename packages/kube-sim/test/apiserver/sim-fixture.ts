/**
 * Test fixture: a started kube-sim API server and @kubernetes/client-node clients pointed at it
 * over real HTTP, stopped by `close()` (call it from `after`/`t.after` so it runs on failure too).
 */
import { request as httpsRequest } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import * as k8s from '@kubernetes/client-node';
import { KubeSimApiServer, type ApiServerOptions } from '../../src/apiserver/index.ts';
import { VPA_CRDS } from '../support/vpa-crds.ts';

/** A running server and clients. */
export interface SimFixture {
  server: KubeSimApiServer;
  kc: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  apps: k8s.AppsV1Api;
  custom: k8s.CustomObjectsApi;
  objects: k8s.KubernetesObjectApi;
  close: () => Promise<void>;
}

/** A KubeConfig for the server with the given token (admin by default). */
export function kubeConfigFor(server: KubeSimApiServer, token: string = server.adminToken): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(server.kubeconfig(token));
  return kc;
}

/** Starts a server with options and builds clients. */
export async function startSim(options: ApiServerOptions = {}): Promise<SimFixture> {
  const server = new KubeSimApiServer({ crdManifests: VPA_CRDS, ...options });
  await server.start();
  const kc = kubeConfigFor(server);
  return {
    server,
    kc,
    core: kc.makeApiClient(k8s.CoreV1Api),
    apps: kc.makeApiClient(k8s.AppsV1Api),
    custom: kc.makeApiClient(k8s.CustomObjectsApi),
    objects: k8s.KubernetesObjectApi.makeApiClient(kc),
    close: () => server.close(),
  };
}

/** The HTTP status code of a client-node ApiException (or undefined). */
export function statusCode(err: unknown): number | undefined {
  return (err as { code?: number }).code;
}

/** The parsed Status body of a client-node ApiException. */
export function statusBody(err: unknown): {
  reason?: string;
  message?: string;
  code?: number;
  details?: { causes?: { field?: string; reason?: string; message?: string }[]; retryAfterSeconds?: number };
} {
  const body = (err as { body?: unknown }).body;
  if (typeof body === 'string') {
    try {
      return JSON.parse(body) as ReturnType<typeof statusBody>;
    } catch {
      return {};
    }
  }
  return (body ?? {}) as ReturnType<typeof statusBody>;
}

/** A minimal pod manifest. */
export function podManifest(name: string, options: { labels?: Record<string, string>; cpu?: string; memory?: string; nodeName?: string } = {}): k8s.V1Pod {
  const resources: k8s.V1ResourceRequirements = {};
  if (options.cpu || options.memory) {
    resources.requests = {};
    if (options.cpu) resources.requests['cpu'] = options.cpu;
    if (options.memory) resources.requests['memory'] = options.memory;
  }
  const pod: k8s.V1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: options.labels ?? { app: 'web' } },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources }] },
  };
  if (options.nodeName && pod.spec) pod.spec.nodeName = options.nodeName;
  return pod;
}

/** One raw HTTPS request to the sim (admin token unless given); the body is JSON or a string. */
export function rawRequest(
  server: KubeSimApiServer,
  method: string,
  path: string,
  body?: unknown,
  options: { token?: string; contentType?: string; accept?: string } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string; json: () => unknown }> {
  const url = new URL(path, server.url);
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        method,
        ca: server.certificateAuthority?.certPem,
        headers: {
          authorization: `Bearer ${options.token ?? server.adminToken}`,
          'content-type': options.contentType ?? 'application/json',
          accept: options.accept ?? 'application/json',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as unknown });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}
