/**
 * The cluster side of `npm run bench:updater`, in its own process so the updater's CPU time and
 * memory are measured alone: kube-sim with one node per 100 pods, N Deployments of 2 pods and N
 * VPAs, each quarter of them leading to one kind of decision (in place, eviction, within bounds,
 * mode Off).
 * Usage: `node --import tsx bench/updater-cluster.ts <latencyMs> <kubeconfig path> [N]` (N default
 * 1,000); prints `READY` when the pods run. Each line `counts` on stdin is answered with
 * `COUNTS <json>`: the API requests the server has served so far (kube-sim's request metrics, as
 * `apiserver_request_total`: verb, resource, subresource, code); `profile-start` and
 * `profile-stop <path>` CPU-profile this process between them (answered `OK`). Stops when its
 * stdin closes.
 */
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Session } from 'node:inspector/promises';
import { startKubeSim } from 'kube-sim';
import { defaultScenario } from 'kube-sim/scenario';
import type { KubeObject } from 'kube-sim/apiserver';
import { VPA_CRD_MANIFESTS } from '../src/api/vpa-crd-manifests.ts';

const latencyMs = Number(process.argv[2] ?? 0);
const kubeconfigPath = process.argv[3] ?? '/tmp/tailor-bench-updater.kubeconfig';
const workloads = Number(process.argv[4] ?? 1000);
if (!Number.isInteger(workloads) || workloads < 4) throw new Error(`N must be an integer of at least 4, got ${process.argv[4]}`);
const PODS = 2 * workloads;

const scenario = defaultScenario();
scenario.nodes = Array.from({ length: Math.ceil(PODS / 100) }, (_, i) => ({
  name: `node-${i}`,
  cpu: '64',
  memory: '256Gi',
  pods: 110,
  labels: {},
  resizeSupport: true,
}));
// reactToChanges off: the cluster advances only on tick(), so the API server is all this process
// does while the updater runs and the loop's wall time is the updater's. A measurement choice, no
// longer a workaround: with it on the start-up settles in ~1-3 s (`npm run bench:kube-sim`,
// decision 0145), and the loop's wall time then includes the sim's reactions to the 500 changes.
const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, scenario, version: '1.35', startAt: Date.UTC(2026, 0, 1), reactToChanges: false });
const MEM = { memory: '256Mi' };

for (let i = 0; i < workloads; i++) {
  const name = `app-${String(i).padStart(5, '0')}`;
  await sim.server.create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m', ...MEM }, limits: { cpu: '200m', memory: '512Mi' } } }] },
      },
    },
  } as unknown as KubeObject);
  const kind = i % 4;
  const mode = kind === 3 ? 'Off' : kind === 2 ? 'Recreate' : 'InPlaceOrRecreate';
  const recommendation =
    kind === 0
      ? { containerName: 'app', target: { cpu: '100m', ...MEM }, lowerBound: { cpu: '80m', ...MEM }, upperBound: { cpu: '150m', memory: '400Mi' } }
      : { containerName: 'app', target: { cpu: '150m', ...MEM }, lowerBound: { cpu: '120m', ...MEM }, upperBound: { cpu: '300m', memory: '400Mi' } };
  await sim.server.create({
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name, namespace: 'default' },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, updatePolicy: { updateMode: mode } },
  } as unknown as KubeObject);
  sim.server.store.mutate('verticalpodautoscalers.autoscaling.k8s.io', 'default', name, (draft) => {
    draft.status = { recommendation: { containerRecommendations: [recommendation] } };
  });
}
const running = () => sim.server.store.list('pods').filter((p) => (p.status as { phase?: string } | undefined)?.phase === 'Running').length;
for (let i = 0; i < 20 && running() < PODS; i++) await sim.cluster.tick(1000);
if (running() < PODS) throw new Error(`only ${running()} of ${PODS} pods run`);
if (latencyMs > 0) sim.server.addFault({ latencyMs });
writeFileSync(kubeconfigPath, sim.server.kubeconfig(), { mode: 0o600 });
process.stdout.write('READY\n');
const lines = createInterface({ input: process.stdin });
let session = new Session();
lines.on('line', (line) => {
  const [command, arg] = line.trim().split(' ');
  if (command === 'counts') process.stdout.write(`COUNTS ${JSON.stringify(sim.server.requests.snapshot())}\n`);
  else if (command === 'profile-start') {
    session = new Session();
    session.connect();
    void session
      .post('Profiler.enable')
      .then(() => session.post('Profiler.start'))
      .then(() => process.stdout.write('OK\n'));
  } else if (command === 'profile-stop' && arg) {
    void session.post('Profiler.stop').then(({ profile }) => {
      writeFileSync(arg, JSON.stringify(profile));
      session.disconnect();
      process.stdout.write('OK\n');
    });
  }
});
lines.on('close', () => {
  void sim.close().then(() => process.exit(0));
});
