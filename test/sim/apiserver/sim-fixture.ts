/**
 * Test fixture: a started kube-sim API server and @kubernetes/client-node clients pointed at it
 * over real HTTP, stopped by `close()` (call it from `after`/`t.after` so it runs on failure too).
 */
import * as k8s from '@kubernetes/client-node';
import { KubeSimApiServer, type ApiServerOptions } from '../../../src/sim/apiserver/index.ts';

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
  const server = new KubeSimApiServer(options);
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
export function statusBody(err: unknown): { reason?: string; message?: string; code?: number; details?: { causes?: { field?: string; reason?: string; message?: string }[]; retryAfterSeconds?: number } } {
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
