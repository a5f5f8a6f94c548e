/**
 * Tailor installed with its Helm chart on the real cluster, as docs/helm.md says: `helm install` of
 * charts/tailor with the lane-built image (image.sh) into tailor-system (`--create-namespace`), its
 * Prometheus URL pointed at the lane's Prometheus (on this machine, scraping the kubelets; pods reach
 * it through a forwarder on node 1's bridge address, as audit.lane.ts does) and a short loop and
 * history through `recommender.extraArgs`. Checked: the CRDs are served, the three Deployments become
 * Ready on that image with Helm's labels, a VPA (updateMode Off) on a busy workload gets a
 * recommendation from the installed recommender; `helm upgrade --reuse-values --set logLevel=debug`
 * rolls Tailor's pods (the config checksum) and restarts no pod of the workload, keeps the webhook's
 * caBundle and the recommendation; `helm uninstall` leaves no object of the release (the namespace,
 * the cluster-scoped RBAC, the webhook configurations) while the CRDs and the VPA stay (Helm's
 * convention for crds/). The CRDs are deleted at the end, so the other lane tests see no Tailor.
 *
 * Helm is the cached build of test/helm/build-helm.sh: lane.sh builds it before the cluster comes up
 * (unless TAILOR_CLUSTER_NO_BUILD=1), ci-lane.sh skips this file, saying why, when it is not cached.
 * Runs with `npm run test:real-cluster chart` (as root), not with `npm test`.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import type { Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import type { LocalPrometheus } from '../../src/local-prometheus/prometheus-process.ts';
import { parseManifests } from '../manifests/kustomize.ts';
import { dropNamespace, freshNamespace, laneKubeConfig, laneKubeconfigPath, laneKubectl, waitFor } from '../real-cluster/lane-cluster.ts';
import { forward, kubeletTargets, startLanePrometheus } from '../real-cluster/lane-prometheus.ts';
import { busyboxDeployment } from '../real-cluster/scenario-workloads.ts';
import { HELM_LABELS, runHelm } from './chart-compare.ts';

const NS = 'tailor-system';
const RELEASE = 'tailor';
const CHART = fileURLToPath(new URL('../../charts/tailor', import.meta.url));
const DEPLOYMENTS = ['tailor-recommender', 'tailor-updater', 'tailor-admission'];
const CRDS = ['verticalpodautoscalers.autoscaling.k8s.io', 'verticalpodautoscalercheckpoints.autoscaling.k8s.io'];
const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };
const MINUTES = 60_000;

const kc = laneKubeConfig();
const core = kc.makeApiClient(k8s.CoreV1Api);
const apps = kc.makeApiClient(k8s.AppsV1Api);
const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);
const registration = kc.makeApiClient(k8s.AdmissionregistrationV1Api);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);

/** The cached helm (lane.sh builds it first; ci-lane.sh skips this file without it). */
function cachedHelm(): string {
  const check = spawnSync('bash', ['test/helm/build-helm.sh', '--check'], { encoding: 'utf8' });
  const said = check.stdout.trim().split('\n').at(-1) ?? '';
  if (check.status === 0) return said;
  throw new Error(`Helm is not built: ${said || check.stderr} (lane.sh builds it; TAILOR_CLUSTER_NO_BUILD=1 needs it cached: test/helm/build-helm.sh)`);
}
const helmBin = cachedHelm();

/** helm against the lane's cluster; its stdout, or an error with its output. */
async function helm(...args: string[]): Promise<string> {
  const result = await runHelm(helmBin, [...args, '--kubeconfig', laneKubeconfigPath()]);
  if (result.code !== 0) throw new Error(`helm ${args.join(' ')} failed (${result.code}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

let image = '';
let workloadNs = '';
let prometheus: LocalPrometheus | undefined;
let forwarder: Server | undefined;
let installed = false;
const readVpa = async () =>
  (await custom.getNamespacedCustomObject({ ...VPA, namespace: workloadNs, name: 'busy' })) as {
    status?: { recommendation?: { containerRecommendations?: Array<{ containerName: string; target: Record<string, string> }> } };
  };
const workloadPod = async () =>
  (await core.listNamespacedPod({ namespace: workloadNs, labelSelector: 'app=busy' })).items.filter((p) => !p.metadata?.deletionTimestamp);

before(async () => {
  image = execFileSync('bash', ['test/real-cluster/image.sh', '--import'], { encoding: 'utf8' }).trim().split('\n').at(-1)!;
  prometheus = await startLanePrometheus(kc, 5);
  const targets = await kubeletTargets(core);
  // Node 1's address is its bridge's, on this machine: pods reach the forwarder through their gateway.
  const nodeIp = targets[0]!.slice(0, targets[0]!.lastIndexOf(':'));
  const forwarded = await forward(nodeIp, Number(new URL(prometheus.url).port));
  forwarder = forwarded.server;

  // A workload before Tailor: a CPU loop at its 200m limit, 25m requested.
  workloadNs = await freshNamespace(core, 'lane-helm');
  await apps.createNamespacedDeployment({
    namespace: workloadNs,
    body: busyboxDeployment(
      'busy',
      {
        command: ['sh', '-c', 'while :; do :; done'],
        resources: { requests: { cpu: '25m', memory: '32Mi' }, limits: { cpu: '200m', memory: '32Mi' } },
      },
      { terminationGracePeriodSeconds: 0 },
    ),
  });

  const [repository, tag] = [image.slice(0, image.lastIndexOf(':')), image.slice(image.lastIndexOf(':') + 1)];
  await helm(
    'install',
    RELEASE,
    CHART,
    '--namespace',
    NS,
    '--create-namespace',
    '--set',
    `image.repository=${repository}`,
    '--set',
    `image.tag=${tag}`,
    '--set',
    `prometheus.url=http://${nodeIp}:${forwarded.port}`,
    // The lane has minutes of history, not days: a short loop, history and step, as goldilocks.lane.ts runs it.
    '--set-json',
    'recommender.extraArgs=["--interval=10s","--history=10m","--history-step=10s","--checkpoint-interval=10s"]',
  );
  installed = true;
});

after(async () => {
  try {
    if (installed) await helm('uninstall', RELEASE, '--namespace', NS).catch((error: unknown) => console.log(String(error)));
    await waitFor(`namespace ${NS} deleted`, 3 * MINUTES, () =>
      core.readNamespace({ name: NS }).then(
        () => undefined,
        () => true,
      ),
    );
    if (workloadNs) await dropNamespace(core, workloadNs);
    // The CRDs stay after an uninstall (crds/); the other lane tests start without them.
    for (const name of CRDS) await ext.deleteCustomResourceDefinition({ name }).catch(() => undefined);
    await waitFor('the VPA CRDs deleted', 2 * MINUTES, async () => {
      const crds = await ext.listCustomResourceDefinition();
      return crds.items.some((c) => c.spec.group === 'autoscaling.k8s.io') ? undefined : true;
    });
  } finally {
    forwarder?.close();
    await prometheus?.stop();
  }
});

test("helm install: the CRDs are served, the three Deployments become Ready on the lane-built image, with Helm's labels", async () => {
  for (const name of CRDS) {
    await waitFor(`CRD ${name} Established`, MINUTES, async () => {
      const crd = await ext.readCustomResourceDefinition({ name });
      return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
    });
  }
  let last: k8s.V1Deployment[] = [];
  await waitFor(
    "Tailor's Deployments Ready",
    5 * MINUTES,
    async () => {
      last = await Promise.all(DEPLOYMENTS.map((name) => apps.readNamespacedDeployment({ namespace: NS, name })));
      return last.every((d) => (d.status?.readyReplicas ?? 0) === d.spec?.replicas && (d.status?.updatedReplicas ?? 0) === d.spec?.replicas) ? true : undefined;
    },
    () => last.map((d) => `${d.metadata?.name} ${d.status?.readyReplicas ?? 0}/${d.spec?.replicas}`).join(', '),
  );
  for (const d of last) {
    assert.equal(d.spec?.template.spec?.containers[0]?.image, image);
    for (const l of HELM_LABELS) assert.ok(d.metadata?.labels?.[l], `${d.metadata?.name} has label ${l}`);
  }
  const ns = await core.readNamespace({ name: NS });
  assert.equal(ns.metadata?.labels?.['pod-security.kubernetes.io/enforce'], 'restricted', "the chart's labels on the namespace --create-namespace made");
  assert.match(await helm('status', RELEASE, '--namespace', NS), /STATUS: deployed/);
});

test('a VPA on the workload gets a recommendation from the installed recommender', async () => {
  await custom.createNamespacedCustomObject({
    ...VPA,
    namespace: workloadNs,
    body: {
      apiVersion: 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      metadata: { name: 'busy' },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'busy' }, updatePolicy: { updateMode: 'Off' } },
    },
  });
  const started = Date.now();
  const logs = () => {
    try {
      return laneKubectl('-n', NS, 'logs', 'deployment/tailor-recommender', '--tail=15');
    } catch (error) {
      return String(error);
    }
  };
  const vpa = await waitFor(
    'a recommendation for container app',
    8 * MINUTES,
    async () => {
      const v = await readVpa();
      return v.status?.recommendation?.containerRecommendations?.some((r) => r.containerName === 'app') ? v : undefined;
    },
    logs,
  );
  const app = vpa.status!.recommendation!.containerRecommendations!.find((r) => r.containerName === 'app')!;
  assert.ok(app.target['cpu'] && app.target['memory'], JSON.stringify(app));
  console.log(`recommendation after ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(app.target)}`);
});

test("helm upgrade changes a setting: Tailor's pods roll, the workload's pod does not restart, the caBundle and the recommendation stay", async () => {
  const [podBefore] = await workloadPod();
  assert.ok(podBefore, "the workload's pod");
  const restartsBefore = podBefore.status?.containerStatuses?.[0]?.restartCount ?? 0;
  const checksum = async () =>
    (await apps.readNamespacedDeployment({ namespace: NS, name: 'tailor-recommender' })).spec?.template.metadata?.annotations?.['checksum/config'];
  const before = await checksum();
  const caBundle = async () => (await registration.readMutatingWebhookConfiguration({ name: 'tailor' })).webhooks?.[0]?.clientConfig.caBundle ?? '';
  const caBefore = await waitFor('the caBundle the webhook writes', 2 * MINUTES, async () => (await caBundle()) || undefined);

  await helm('upgrade', RELEASE, CHART, '--namespace', NS, '--reuse-values', '--set', 'logLevel=debug');
  // Right after the upgrade, before new webhook pods could write it again: the chart has no caBundle
  // field, so Helm's apply left the one the webhook wrote.
  assert.equal(await caBundle(), caBefore, 'the caBundle survived the upgrade');
  assert.equal((await core.readNamespacedConfigMap({ namespace: NS, name: 'tailor-config' })).data?.['TAILOR_LOG_LEVEL'], 'debug');
  assert.notEqual(await checksum(), before, 'the config checksum changed, so the pods roll');
  await waitFor("Tailor's Deployments rolled and Ready", 5 * MINUTES, async () => {
    const all = await Promise.all(DEPLOYMENTS.map((name) => apps.readNamespacedDeployment({ namespace: NS, name })));
    return all.every(
      (d) =>
        (d.status?.observedGeneration ?? 0) >= (d.metadata?.generation ?? 1) &&
        d.status?.updatedReplicas === d.spec?.replicas &&
        d.status?.readyReplicas === d.spec?.replicas &&
        (d.status?.replicas ?? 0) === d.spec?.replicas,
    )
      ? true
      : undefined;
  });
  assert.match(await helm('history', RELEASE, '--namespace', NS), /^2\s.*\bdeployed\b/m);

  const pods = await workloadPod();
  assert.equal(pods.length, 1);
  assert.equal(pods[0]!.metadata?.uid, podBefore.metadata?.uid, 'the same pod');
  assert.equal(pods[0]!.status?.containerStatuses?.[0]?.restartCount ?? 0, restartsBefore, 'its container did not restart');
  assert.ok((await caBundle()).length > 0, 'the caBundle is there after the roll');
  assert.ok((await readVpa()).status?.recommendation?.containerRecommendations?.length, 'the recommendation is still there');
});

test('helm uninstall leaves no object of the release behind; the CRDs and the VPA stay (crds/)', async () => {
  // Every object the release made, as Helm recorded it.
  const manifest = parseManifests(await helm('get', 'manifest', RELEASE, '--namespace', NS));
  assert.equal(
    manifest.length,
    33,
    `the release's manifest has the 33 objects of templates/: ${manifest.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`,
  );
  await helm('uninstall', RELEASE, '--namespace', NS);
  installed = false;
  await waitFor(`namespace ${NS} deleted`, 3 * MINUTES, () =>
    core.readNamespace({ name: NS }).then(
      () => undefined,
      () => true,
    ),
  );
  const left = manifest.filter(
    (o) =>
      laneKubectl(
        'get',
        `${o.kind}/${o.metadata.name}`,
        ...(o.metadata.namespace ? ['-n', o.metadata.namespace] : []),
        '--ignore-not-found',
        '-o',
        'name',
      ).trim() !== '',
  );
  assert.deepEqual(
    left.map((o) => `${o.kind}/${o.metadata.name}`),
    [],
    'objects of the release still there',
  );
  for (const name of CRDS) await ext.readCustomResourceDefinition({ name });
  await readVpa();
  // Helm 4 has no --all: every status it keeps a record in, named.
  assert.doesNotMatch(
    await helm('list', '--all-namespaces', '--deployed', '--failed', '--pending', '--superseded', '--uninstalling', '--uninstalled'),
    new RegExp(`^${RELEASE}\\s`, 'm'),
  );
});
