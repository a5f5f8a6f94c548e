/**
 * `npm run bench:kube-sim`: how fast kube-sim settles with `reactToChanges` on (the default) and
 * whether its API keeps answering meanwhile. Starts a sim with 20 nodes, creates 1,000
 * Deployments of 2 pods (and 1,000 VPAs) in-process, as bench/updater-cluster.ts does, and waits
 * for `settle()`, while a client sends (after the creates) `GET /api/v1/namespaces/default` over HTTPS every 50 ms.
 * Prints the settle time, the pods running, and the requests answered during the settle with
 * their median and worst latency. Usage: `npm run bench:kube-sim [-- <deployments>]`.
 */
import { request } from 'node:https';
import { startKubeSim } from 'kube-sim';
import { defaultScenario } from 'kube-sim/scenario';
import type { KubeObject } from 'kube-sim/apiserver';
import { VPA_CRD_MANIFESTS } from '../src/api/vpa-crd-manifests.ts';

const DEPLOYMENTS = Number(process.argv[2] ?? 1000);

const scenario = defaultScenario();
scenario.nodes = Array.from({ length: 20 }, (_, i) => ({ name: `node-${i}`, cpu: '64', memory: '256Gi', pods: 110, labels: {}, resizeSupport: true }));
const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, scenario, version: '1.35', startAt: Date.UTC(2026, 0, 1) });

/** One GET over real HTTPS; resolves with its latency in ms. */
function probe(): Promise<number> {
  const started = performance.now();
  const url = new URL('/api/v1/namespaces/default', sim.url);
  return new Promise((resolve, reject) => {
    const req = request(url, { rejectUnauthorized: false, headers: { authorization: `Bearer ${sim.server.adminToken}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

const started = performance.now();
for (let i = 0; i < DEPLOYMENTS; i++) {
  const name = `app-${String(i).padStart(4, '0')}`;
  await sim.server.create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '200m', memory: '512Mi' } } }],
        },
      },
    },
  } as unknown as KubeObject);
  await sim.server.create({
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name, namespace: 'default' },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, updatePolicy: { updateMode: 'InPlaceOrRecreate' } },
  } as unknown as KubeObject);
}
const createdMs = performance.now() - started;
// The creates above run in-process without yielding; the reconciliation they started is what the
// probe measures (a warm-up GET first, so the TLS handshake is not counted).
await probe();
const latencies: number[] = [];
let probing = true;
const prober = (async () => {
  while (probing) {
    latencies.push(await probe());
    await new Promise((r) => setTimeout(r, 50));
  }
})();
await sim.cluster.settle();
const settleMs = performance.now() - started;
probing = false;
await prober;
const running = sim.server.store.list('pods').filter((p) => (p.status as { phase?: string } | undefined)?.phase === 'Running').length;
const sorted = [...latencies].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
console.log(`kube-sim, reactToChanges on: ${DEPLOYMENTS} Deployments x 2 pods on 20 nodes`);
console.log(
  `  created in ${(createdMs / 1000).toFixed(2)} s; settled (all passes done) after ${(settleMs / 1000).toFixed(2)} s; pods running ${running} of ${2 * DEPLOYMENTS}`,
);
console.log(
  `  API during the settle: ${latencies.length} GETs answered, median ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, worst ${(sorted.at(-1) ?? 0).toFixed(0)} ms`,
);
await sim.close();
