/**
 * Tailor's metrics source on the real cluster: Debian's Prometheus, started the way the other tests
 * start it (src/local-prometheus), scraping every lane kubelet's `/metrics/cadvisor` and
 * `/metrics/resource` over HTTPS with the lane's `prometheus` client certificate (pki.sh). The
 * kubelets authorize it through the apiserver (webhook mode), so the user gets a ClusterRole that
 * may `get nodes/metrics` and nothing else.
 */
import { createServer, connect, type Server } from 'node:net';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startLocalPrometheus, type LocalPrometheus } from '../../src/local-prometheus/prometheus-process.ts';

/** The user of the lane's Prometheus client certificate (its CN in pki.sh). */
export const PROMETHEUS_USER = 'tailor-lane-prometheus';
/** The scrape jobs: one per kubelet endpoint, as a kube-prometheus install has them. */
export const SCRAPE_JOBS = { cadvisor: 'kubelet-cadvisor', resource: 'kubelet-resource' } as const;

/** The lane's PKI directory (pki.sh writes it under the state directory). */
export function lanePkiDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.TAILOR_CLUSTER_STATE ?? '/var/lib/tailor-real-cluster', 'pki');
}

/** `address:port` of each node's kubelet, from the Node objects (InternalIP, daemonEndpoints). */
export async function kubeletTargets(core: k8s.CoreV1Api): Promise<string[]> {
  const nodes = await core.listNode();
  return nodes.items.map((n) => {
    const ip = n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
    const port = n.status?.daemonEndpoints?.kubeletEndpoint?.Port;
    if (!ip || !port) throw new Error(`node ${n.metadata?.name} has no InternalIP or kubelet port in its status`);
    return `${ip}:${port}`;
  });
}

/** prometheus.yml: both kubelet endpoints of every target every `intervalSeconds`, client certificate auth. */
export function kubeletScrapeConfig(targets: readonly string[], pki: string, intervalSeconds: number): string {
  const tls = `    tls_config: {ca_file: ${join(pki, 'ca.crt')}, cert_file: ${join(pki, 'prometheus.crt')}, key_file: ${join(pki, 'prometheus.key')}}`;
  const job = (name: string, path: string) => [
    `  - job_name: ${name}`,
    '    scheme: https',
    `    metrics_path: ${path}`,
    tls,
    `    static_configs: [{targets: [${targets.map((t) => `'${t}'`).join(', ')}]}]`,
  ];
  return [
    'global:',
    `  scrape_interval: ${intervalSeconds}s`,
    `  scrape_timeout: ${Math.max(1, intervalSeconds - 1)}s`,
    'scrape_configs:',
    ...job(SCRAPE_JOBS.cadvisor, '/metrics/cadvisor'),
    ...job(SCRAPE_JOBS.resource, '/metrics/resource'),
    '',
  ].join('\n');
}

/** Lets the Prometheus user read the kubelets' metrics (`get nodes/metrics`), idempotently. */
export async function allowPrometheus(kc: k8s.KubeConfig): Promise<void> {
  const rbac = kc.makeApiClient(k8s.RbacAuthorizationV1Api);
  const name = 'tailor-lane-prometheus';
  const ignoreExists = (error: unknown) => {
    if ((error as { code?: number }).code !== 409) throw error;
  };
  await rbac
    .createClusterRole({ body: { metadata: { name }, rules: [{ apiGroups: [''], resources: ['nodes/metrics'], verbs: ['get'] }] } })
    .catch(ignoreExists);
  await rbac
    .createClusterRoleBinding({
      body: {
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: PROMETHEUS_USER }],
      },
    })
    .catch(ignoreExists);
}

/** Starts Prometheus scraping every lane kubelet; `stop()` ends it and removes its data. */
export async function startLanePrometheus(kc: k8s.KubeConfig, intervalSeconds = 5): Promise<LocalPrometheus> {
  await allowPrometheus(kc);
  const targets = await kubeletTargets(kc.makeApiClient(k8s.CoreV1Api));
  return startLocalPrometheus({ config: kubeletScrapeConfig(targets, lanePkiDir(), intervalSeconds) });
}

/** One instant PromQL query (now, or at `time` in seconds); the result vector (throws on an error answer). */
export async function promQuery(url: string, query: string, time?: number): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
  const params = new URLSearchParams({ query, ...(time === undefined ? {} : { time: String(time) }) });
  const res = await fetch(`${url}/api/v1/query?${params}`);
  const body = (await res.json()) as {
    status: string;
    error?: string;
    data?: { resultType: string; result: Array<{ metric: Record<string, string>; value: [number, string] }> };
  };
  if (body.status !== 'success') throw new Error(`Prometheus query failed (${res.status}): ${body.error} — ${query}`);
  return body.data?.result ?? [];
}

/** The scrape targets' health (`up` per job and instance) with the last error, for messages. */
export async function targetHealth(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/targets`);
  const body = (await res.json()) as { data: { activeTargets: Array<{ scrapePool: string; scrapeUrl: string; health: string; lastError: string }> } };
  return body.data.activeTargets.map((t) => `${t.scrapeUrl} ${t.health}${t.lastError ? ` (${t.lastError})` : ''}`).join('; ');
}

/** Passes TCP connections on `host` (a free port) to 127.0.0.1:`port`; resolves with the port it listens on. */
export async function forward(host: string, port: number): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    const upstream = connect(port, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(0, host, ok));
  return { server, port: (server.address() as { port: number }).port };
}
