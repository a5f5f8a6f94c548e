/**
 * The cluster side of `npm run bench:updater`, in its own process so the updater's CPU time is
 * measured alone: kube-sim with 20 nodes, 1,000 Deployments of 2 pods and 1,000 VPAs, each
 * quarter of them leading to one kind of decision (in place, eviction, within bounds, mode Off).
 * Usage: `node --import tsx bench/updater-cluster.ts <latencyMs> <kubeconfig path>`; prints
 * `READY` when the pods run, and stops when its stdin closes.
 */
import { writeFileSync } from 'node:fs';
import { startKubeSim } from 'kube-sim';
import { defaultScenario } from 'kube-sim/scenario';
import type { KubeObject } from 'kube-sim/apiserver';
import { VPA_CRD_MANIFESTS } from '../src/api/vpa-crd-manifests.ts';

const latencyMs = Number(process.argv[2] ?? 0);
const kubeconfigPath = process.argv[3] ?? '/tmp/tailor-bench-updater.kubeconfig';
export const WORKLOADS = 1000;

const scenario = defaultScenario();
scenario.nodes = Array.from({ length: 20 }, (_, i) => ({ name: `node-${i}`, cpu: '64', memory: '256Gi', pods: 110, labels: {}, resizeSupport: true }));
// reactToChanges off: the cluster advances only on tick(), so the API server is all this process
// does while the updater runs and the loop's wall time is the updater's. A measurement choice, no
// longer a workaround: with it on the start-up settles in ~1-3 s (`npm run bench:kube-sim`,
// decision 0145), and the loop's wall time then includes the sim's reactions to the 500 changes.
const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, scenario, version: '1.35', startAt: Date.UTC(2026, 0, 1), reactToChanges: false });
const MEM = { memory: '256Mi' };

for (let i = 0; i < WORKLOADS; i++) {
  const name = `app-${String(i).padStart(4, '0')}`;
  await sim.server.create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m', ...MEM }, limits: { cpu: '200m', memory: '512Mi' } } }] } } },
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
for (let i = 0; i < 20 && running() < 2 * WORKLOADS; i++) await sim.cluster.tick(1000);
if (running() < 2 * WORKLOADS) throw new Error(`only ${running()} of ${2 * WORKLOADS} pods run`);
if (latencyMs > 0) sim.server.addFault({ latencyMs });
writeFileSync(kubeconfigPath, sim.server.kubeconfig(), { mode: 0o600 });
process.stdout.write('READY\n');
process.stdin.resume();
process.stdin.on('end', () => {
  void sim.close().then(() => process.exit(0));
});
