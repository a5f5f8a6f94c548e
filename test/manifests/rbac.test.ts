/**
 * The RBAC proof: the rendered install applied to kube-sim with authentication and RBAC
 * enforcement on, then every API call each component makes is made over HTTPS with a token of that
 * component's service account (issued through the TokenRequest API): the documented calls are
 * allowed, calls outside the role are refused with 403. Each row checks in kube-sim's request
 * counts that it really reached the server as that service account, with the expected code.
 * (ReplicationControllers, which the target reader may also read, are not served by kube-sim.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import type { ClusterFixture } from 'kube-sim/test/e2e/cluster-fixture';
import { installedOnSim } from './installed-on-sim.ts';

const NS = 'tailor-system';
const APP = 'team-a';
const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };
const CHECKPOINT = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalercheckpoints' };
const jsonPatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch);
const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

type Component = 'recommender' | 'updater' | 'admission';

/** The API clients of one service account. */
interface Clients {
  core: k8s.CoreV1Api;
  apps: k8s.AppsV1Api;
  batch: k8s.BatchV1Api;
  policy: k8s.PolicyV1Api;
  autoscaling: k8s.AutoscalingV2Api;
  coordination: k8s.CoordinationV1Api;
  events: k8s.EventsV1Api;
  admission: k8s.AdmissionregistrationV1Api;
  custom: k8s.CustomObjectsApi;
}

function clientsFor(config: k8s.KubeConfig): Clients {
  return {
    core: config.makeApiClient(k8s.CoreV1Api),
    apps: config.makeApiClient(k8s.AppsV1Api),
    batch: config.makeApiClient(k8s.BatchV1Api),
    policy: config.makeApiClient(k8s.PolicyV1Api),
    autoscaling: config.makeApiClient(k8s.AutoscalingV2Api),
    coordination: config.makeApiClient(k8s.CoordinationV1Api),
    events: config.makeApiClient(k8s.EventsV1Api),
    admission: config.makeApiClient(k8s.AdmissionregistrationV1Api),
    custom: config.makeApiClient(k8s.CustomObjectsApi),
  };
}

/** What a row needs from the cluster: the names of objects made in the set-up. */
interface World {
  pod: string;
  evictablePod: string;
}

interface Row {
  component: Component;
  call: string;
  /** 2xx expected for allowed calls, 403 for refused ones. */
  expect: 'allowed' | 403;
  run: (c: Clients, w: World) => Promise<unknown>;
}

const now = new Date('2026-01-01T00:00:00Z');
const lease = (name: string): k8s.V1Lease => ({ metadata: { name, namespace: NS }, spec: { holderIdentity: 'test', leaseDurationSeconds: 15 } });
const coreEvent = (name: string): k8s.CoreV1Event => ({
  metadata: { name, namespace: APP },
  involvedObject: { kind: 'Pod', namespace: APP, name: 'web', apiVersion: 'v1' },
  reason: 'Test',
  message: 'RBAC proof',
  type: 'Normal',
  firstTimestamp: now,
  lastTimestamp: now,
  count: 1,
});
const checkpoint = (name: string) => ({
  apiVersion: 'autoscaling.k8s.io/v1',
  kind: 'VerticalPodAutoscalerCheckpoint',
  metadata: { name, namespace: APP },
  spec: { vpaObjectName: 'web', containerName: 'app' },
});

/** Rows are run in order; the eviction rows come last (an eviction removes the pod). */
// One row per line, read as a table:
// prettier-ignore
const ROWS: Row[] = [
  // Recommender: reads VPAs, pods and workloads; writes VPA status and checkpoints; events; its Lease.
  { component: 'recommender', call: 'list VPAs in all namespaces', expect: 'allowed', run: (c) => c.custom.listClusterCustomObject(VPA) },
  { component: 'recommender', call: 'list pods in all namespaces', expect: 'allowed', run: (c) => c.core.listPodForAllNamespaces() },
  { component: 'recommender', call: 'get a Deployment', expect: 'allowed', run: (c) => c.apps.readNamespacedDeployment({ namespace: APP, name: 'web' }) },
  { component: 'recommender', call: 'get deployments/scale', expect: 'allowed', run: (c) => c.apps.readNamespacedDeploymentScale({ namespace: APP, name: 'web' }) },
  { component: 'recommender', call: 'list ReplicaSets', expect: 'allowed', run: (c) => c.apps.listReplicaSetForAllNamespaces() },
  { component: 'recommender', call: 'list StatefulSets', expect: 'allowed', run: (c) => c.apps.listStatefulSetForAllNamespaces() },
  { component: 'recommender', call: 'list DaemonSets', expect: 'allowed', run: (c) => c.apps.listDaemonSetForAllNamespaces() },
  { component: 'recommender', call: 'list Jobs', expect: 'allowed', run: (c) => c.batch.listJobForAllNamespaces() },
  { component: 'recommender', call: 'list CronJobs', expect: 'allowed', run: (c) => c.batch.listCronJobForAllNamespaces() },
  {
    component: 'recommender',
    call: 'patch verticalpodautoscalers/status',
    expect: 'allowed',
    run: (c) =>
      c.custom.patchNamespacedCustomObjectStatus(
        { ...VPA, namespace: APP, name: 'web', body: { status: { recommendation: { containerRecommendations: [{ containerName: 'app', target: { cpu: '150m', memory: '100Mi' } }] } } } },
        mergePatch,
      ),
  },
  {
    component: 'recommender',
    call: 'update verticalpodautoscalers/status',
    expect: 'allowed',
    run: async (c) => {
      const vpa = (await c.custom.getNamespacedCustomObject({ ...VPA, namespace: APP, name: 'web' })) as object;
      return c.custom.replaceNamespacedCustomObjectStatus({ ...VPA, namespace: APP, name: 'web', body: vpa });
    },
  },
  { component: 'recommender', call: 'patch a VPA spec', expect: 403, run: (c) => c.custom.patchNamespacedCustomObject({ ...VPA, namespace: APP, name: 'web', body: { spec: { updatePolicy: { updateMode: 'Off' } } } }, mergePatch) },
  { component: 'recommender', call: 'create a checkpoint', expect: 'allowed', run: (c) => c.custom.createNamespacedCustomObject({ ...CHECKPOINT, namespace: APP, body: checkpoint('web-app') }) },
  { component: 'recommender', call: 'list checkpoints', expect: 'allowed', run: (c) => c.custom.listClusterCustomObject(CHECKPOINT) },
  { component: 'recommender', call: 'patch a checkpoint', expect: 'allowed', run: (c) => c.custom.patchNamespacedCustomObject({ ...CHECKPOINT, namespace: APP, name: 'web-app', body: { metadata: { labels: { checked: 'yes' } } } }, mergePatch) },
  { component: 'recommender', call: 'delete a checkpoint', expect: 'allowed', run: (c) => c.custom.deleteNamespacedCustomObject({ ...CHECKPOINT, namespace: APP, name: 'web-app' }) },
  { component: 'recommender', call: 'create a core event', expect: 'allowed', run: (c) => c.core.createNamespacedEvent({ namespace: APP, body: coreEvent('recommender-event') }) },
  {
    component: 'recommender',
    call: 'create an events.k8s.io event',
    expect: 'allowed',
    run: (c) =>
      c.events.createNamespacedEvent({
        namespace: APP,
        body: { metadata: { name: 'recommender-event-v1', namespace: APP }, eventTime: new k8s.V1MicroTime(now.getTime()), reportingController: 'tailor.dev/recommender', reportingInstance: 'tailor-recommender-0', action: 'Recommend', reason: 'Test', type: 'Normal', regarding: { kind: 'Pod', namespace: APP, name: 'web' } },
      }),
  },
  { component: 'recommender', call: 'create its Lease', expect: 'allowed', run: (c) => c.coordination.createNamespacedLease({ namespace: NS, body: lease('tailor-recommender') }) },
  {
    component: 'recommender',
    call: 'get and renew (replace) its Lease',
    expect: 'allowed',
    run: async (c) => {
      const current = await c.coordination.readNamespacedLease({ namespace: NS, name: 'tailor-recommender' });
      return c.coordination.replaceNamespacedLease({ namespace: NS, name: 'tailor-recommender', body: { ...current, spec: { ...current.spec, renewTime: new k8s.V1MicroTime(now.getTime()) } } });
    },
  },
  { component: 'recommender', call: "get the updater's Lease", expect: 403, run: (c) => c.coordination.readNamespacedLease({ namespace: NS, name: 'tailor-updater' }) },
  { component: 'recommender', call: 'create a Lease in kube-system', expect: 403, run: (c) => c.coordination.createNamespacedLease({ namespace: 'kube-system', body: { ...lease('tailor-recommender'), metadata: { name: 'tailor-recommender', namespace: 'kube-system' } } }) },
  { component: 'recommender', call: 'patch pods/resize', expect: 403, run: (c, w) => c.core.patchNamespacedPodResize({ namespace: APP, name: w.pod, body: [{ op: 'test', path: '/metadata/name', value: w.pod }] }, jsonPatch) },
  { component: 'recommender', call: 'patch a pod', expect: 403, run: (c, w) => c.core.patchNamespacedPod({ namespace: APP, name: w.pod, body: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }] }, jsonPatch) },
  { component: 'recommender', call: 'list Secrets', expect: 403, run: (c) => c.core.listSecretForAllNamespaces() },

  // Updater: reads pods, VPAs, PDBs, HPAs, LimitRanges, workloads; resizes and evicts, nothing else on pods.
  { component: 'updater', call: 'list pods in all namespaces', expect: 'allowed', run: (c) => c.core.listPodForAllNamespaces() },
  { component: 'updater', call: 'list VPAs in all namespaces', expect: 'allowed', run: (c) => c.custom.listClusterCustomObject(VPA) },
  { component: 'updater', call: 'list PodDisruptionBudgets', expect: 'allowed', run: (c) => c.policy.listPodDisruptionBudgetForAllNamespaces() },
  { component: 'updater', call: 'list HorizontalPodAutoscalers', expect: 'allowed', run: (c) => c.autoscaling.listHorizontalPodAutoscalerForAllNamespaces() },
  { component: 'updater', call: 'list LimitRanges', expect: 'allowed', run: (c) => c.core.listLimitRangeForAllNamespaces() },
  { component: 'updater', call: 'get deployments/scale', expect: 'allowed', run: (c) => c.apps.readNamespacedDeploymentScale({ namespace: APP, name: 'web' }) },
  {
    component: 'updater',
    call: 'patch pods/resize (CPU 100m -> 150m in place)',
    expect: 'allowed',
    run: (c, w) =>
      c.core.patchNamespacedPodResize(
        { namespace: APP, name: w.pod, body: [{ op: 'replace', path: '/spec/containers/0/resources', value: { requests: { cpu: '150m', memory: '64Mi' }, limits: { cpu: '300m', memory: '128Mi' } } }] },
        jsonPatch,
      ),
  },
  { component: 'updater', call: 'patch a pod', expect: 403, run: (c, w) => c.core.patchNamespacedPod({ namespace: APP, name: w.pod, body: [{ op: 'add', path: '/metadata/annotations', value: { x: 'y' } }] }, jsonPatch) },
  {
    component: 'updater',
    call: 'update (replace) a pod',
    expect: 403,
    run: (c, w) => c.core.replaceNamespacedPod({ namespace: APP, name: w.pod, body: { metadata: { name: w.pod, namespace: APP }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } }),
  },
  { component: 'updater', call: 'delete a pod', expect: 403, run: (c, w) => c.core.deleteNamespacedPod({ namespace: APP, name: w.pod }) },
  { component: 'updater', call: 'patch verticalpodautoscalers/status (its HpaConflict condition)', expect: 'allowed', run: (c) => c.custom.patchNamespacedCustomObjectStatus({ ...VPA, namespace: APP, name: 'web', body: { status: {} } }, mergePatch) },
  { component: 'updater', call: 'patch a VPA (spec)', expect: 403, run: (c) => c.custom.patchNamespacedCustomObject({ ...VPA, namespace: APP, name: 'web', body: { spec: { updatePolicy: { updateMode: 'Off' } } } }, mergePatch) },
  { component: 'updater', call: 'create a checkpoint', expect: 403, run: (c) => c.custom.createNamespacedCustomObject({ ...CHECKPOINT, namespace: APP, body: checkpoint('updater-made') }) },
  { component: 'updater', call: 'create a core event', expect: 'allowed', run: (c) => c.core.createNamespacedEvent({ namespace: APP, body: coreEvent('updater-event') }) },
  { component: 'updater', call: 'create its Lease', expect: 'allowed', run: (c) => c.coordination.createNamespacedLease({ namespace: NS, body: lease('tailor-updater') }) },
  { component: 'updater', call: "get the recommender's Lease", expect: 403, run: (c) => c.coordination.readNamespacedLease({ namespace: NS, name: 'tailor-recommender' }) },
  { component: 'updater', call: 'list Secrets', expect: 403, run: (c) => c.core.listSecretForAllNamespaces() },

  // Admission: watches VPAs, LimitRanges, ReplicaSets, Jobs; keeps its own webhook configurations; its CA Secret; its status Lease (read by the updater).
  { component: 'admission', call: 'list VPAs in all namespaces', expect: 'allowed', run: (c) => c.custom.listClusterCustomObject(VPA) },
  { component: 'admission', call: 'list LimitRanges', expect: 'allowed', run: (c) => c.core.listLimitRangeForAllNamespaces() },
  { component: 'admission', call: 'list ReplicaSets', expect: 'allowed', run: (c) => c.apps.listReplicaSetForAllNamespaces() },
  { component: 'admission', call: 'list Jobs', expect: 'allowed', run: (c) => c.batch.listJobForAllNamespaces() },
  {
    component: 'admission',
    call: 'get and replace its MutatingWebhookConfiguration (caBundle)',
    expect: 'allowed',
    run: async (c) => {
      const current = await c.admission.readMutatingWebhookConfiguration({ name: 'tailor' });
      const webhooks = (current.webhooks ?? []).map((h) => ({ ...h, clientConfig: { ...h.clientConfig, caBundle: Buffer.from('test CA').toString('base64') } }));
      return c.admission.replaceMutatingWebhookConfiguration({ name: 'tailor', body: { ...current, webhooks } });
    },
  },
  { component: 'admission', call: 'patch its ValidatingWebhookConfiguration', expect: 'allowed', run: (c) => c.admission.patchValidatingWebhookConfiguration({ name: 'tailor', body: { metadata: { labels: { checked: 'yes' } } } }, mergePatch) },
  { component: 'admission', call: "get another tool's MutatingWebhookConfiguration", expect: 403, run: (c) => c.admission.readMutatingWebhookConfiguration({ name: 'someone-else' }) },
  { component: 'admission', call: 'create a MutatingWebhookConfiguration', expect: 403, run: (c) => c.admission.createMutatingWebhookConfiguration({ body: { metadata: { name: 'tailor-2' }, webhooks: [] } }) },
  {
    component: 'admission',
    call: 'create its CA Secret',
    expect: 'allowed',
    run: (c) => c.core.createNamespacedSecret({ namespace: NS, body: { metadata: { name: 'tailor-webhook-ca', namespace: NS }, type: 'Opaque', data: { 'ca.crt': 'eA==', 'ca.key': 'eA==' } } }),
  },
  { component: 'admission', call: 'get its CA Secret', expect: 'allowed', run: (c) => c.core.readNamespacedSecret({ namespace: NS, name: 'tailor-webhook-ca' }) },
  { component: 'admission', call: 'get another Secret in its namespace', expect: 403, run: (c) => c.core.readNamespacedSecret({ namespace: NS, name: 'other' }) },
  { component: 'admission', call: 'list Secrets in its namespace', expect: 403, run: (c) => c.core.listNamespacedSecret({ namespace: NS }) },
  { component: 'admission', call: 'list pods', expect: 403, run: (c) => c.core.listPodForAllNamespaces() },
  { component: 'admission', call: 'patch pods/resize', expect: 403, run: (c, w) => c.core.patchNamespacedPodResize({ namespace: APP, name: w.pod, body: [{ op: 'test', path: '/metadata/name', value: w.pod }] }, jsonPatch) },
  { component: 'admission', call: 'update verticalpodautoscalers/status', expect: 403, run: (c) => c.custom.patchNamespacedCustomObjectStatus({ ...VPA, namespace: APP, name: 'web', body: { status: {} } }, mergePatch) },
  { component: 'admission', call: 'create its status Lease', expect: 'allowed', run: (c) => c.coordination.createNamespacedLease({ namespace: NS, body: lease('vpa-admission-controller') }) },
  {
    component: 'admission',
    call: 'get and renew (replace) its status Lease',
    expect: 'allowed',
    run: async (c) => {
      const current = await c.coordination.readNamespacedLease({ namespace: NS, name: 'vpa-admission-controller' });
      return c.coordination.replaceNamespacedLease({ namespace: NS, name: 'vpa-admission-controller', body: { ...current, spec: { ...current.spec, renewTime: new k8s.V1MicroTime(now.getTime()) } } });
    },
  },
  { component: 'admission', call: "get the updater's Lease", expect: 403, run: (c) => c.coordination.readNamespacedLease({ namespace: NS, name: 'tailor-updater' }) },
  { component: 'admission', call: 'create a Lease in kube-system', expect: 403, run: (c) => c.coordination.createNamespacedLease({ namespace: 'kube-system', body: { ...lease('vpa-admission-controller'), metadata: { name: 'vpa-admission-controller', namespace: 'kube-system' } } }) },
  { component: 'updater', call: "get the admission webhook's status Lease", expect: 'allowed', run: (c) => c.coordination.readNamespacedLease({ namespace: NS, name: 'vpa-admission-controller' }) },
  {
    component: 'updater',
    call: "renew the admission webhook's status Lease",
    expect: 403,
    run: async (c) => c.coordination.replaceNamespacedLease({ namespace: NS, name: 'vpa-admission-controller', body: lease('vpa-admission-controller') }),
  },
  { component: 'recommender', call: "get the admission webhook's status Lease", expect: 403, run: (c) => c.coordination.readNamespacedLease({ namespace: NS, name: 'vpa-admission-controller' }) },

  // Evictions last.
  { component: 'admission', call: 'create pods/eviction', expect: 403, run: (c, w) => c.core.createNamespacedPodEviction({ namespace: APP, name: w.evictablePod, body: { metadata: { name: w.evictablePod, namespace: APP } } }) },
  { component: 'recommender', call: 'create pods/eviction', expect: 403, run: (c, w) => c.core.createNamespacedPodEviction({ namespace: APP, name: w.evictablePod, body: { metadata: { name: w.evictablePod, namespace: APP } } }) },
  { component: 'updater', call: 'create pods/eviction', expect: 'allowed', run: (c, w) => c.core.createNamespacedPodEviction({ namespace: APP, name: w.evictablePod, body: { metadata: { name: w.evictablePod, namespace: APP } } }) },
];

/** Sets up the workload the rows act on, as the admin, before RBAC is switched on. */
async function setUp(cluster: ClusterFixture, admin: k8s.KubeConfig): Promise<World> {
  const core = admin.makeApiClient(k8s.CoreV1Api);
  const apps = admin.makeApiClient(k8s.AppsV1Api);
  const custom = admin.makeApiClient(k8s.CustomObjectsApi);
  const admission = admin.makeApiClient(k8s.AdmissionregistrationV1Api);
  await core.createNamespace({ body: { metadata: { name: APP } } });
  const labels = { app: 'web' };
  await apps.createNamespacedDeployment({
    namespace: APP,
    body: {
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [
              { name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } } },
            ],
          },
        },
      },
    },
  });
  await custom.createNamespacedCustomObject({
    ...VPA,
    namespace: APP,
    body: {
      apiVersion: 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
    },
  });
  await core.createNamespacedSecret({ namespace: NS, body: { metadata: { name: 'other' }, stringData: { password: 'x' } } });
  await admission.createMutatingWebhookConfiguration({ body: { metadata: { name: 'someone-else' }, webhooks: [] } });
  for (let i = 0; i < 5; i++) await cluster.tick(1000);
  const pods = (await core.listNamespacedPod({ namespace: APP })).items.filter((p) => p.status?.phase === 'Running');
  assert.equal(pods.length, 2, 'both web pods run before the rows start');
  return { pod: pods[0]!.metadata!.name!, evictablePod: pods[1]!.metadata!.name! };
}

test('RBAC on kube-sim: each service account may make exactly its documented calls', async (t) => {
  const { cluster } = await installedOnSim(t, 'tailor-rbac-');
  const server = cluster.sim.server;
  const admin = new k8s.KubeConfig();
  admin.loadFromString(server.kubeconfig());
  const world = await setUp(cluster, admin);

  server.setAuthentication(true);
  server.setAuthorization(true);
  // Tokens through the TokenRequest API, as the kubelet gets them for a pod's service account.
  const adminCore = admin.makeApiClient(k8s.CoreV1Api);
  const clients = {} as Record<Component, Clients>;
  for (const component of ['recommender', 'updater', 'admission'] as const) {
    const request = await adminCore.createNamespacedServiceAccountToken({ namespace: NS, name: `tailor-${component}`, body: { spec: { audiences: [] } } });
    const config = new k8s.KubeConfig();
    config.loadFromString(server.kubeconfig(request.status?.token ?? ''));
    clients[component] = clientsFor(config);
  }

  for (const row of ROWS) {
    await t.test(`${row.component}: ${row.call} -> ${row.expect}`, async () => {
      const username = `system:serviceaccount:${NS}:tailor-${row.component}`;
      const before = { all: server.requests.count({ username }), refused: server.requests.count({ username, code: 403 }) };
      let refusal: { code?: number; body?: unknown } | undefined;
      try {
        await row.run(clients[row.component], world);
      } catch (err) {
        refusal = err as { code?: number; body?: unknown };
      }
      const after = { all: server.requests.count({ username }), refused: server.requests.count({ username, code: 403 }) };
      assert.ok(after.all > before.all, 'the call reached kube-sim as this service account');
      if (row.expect === 'allowed') {
        assert.equal(refusal, undefined, `refused: ${String(refusal?.code)} ${JSON.stringify(refusal?.body)}`);
        assert.equal(after.refused, before.refused);
      } else {
        assert.equal(refusal?.code, 403, `expected 403, got ${refusal ? String(refusal.code) : 'success'}`);
        assert.match(String(refusal?.body), new RegExp(`User \\\\?"${username}\\\\?" cannot`));
        assert.equal(after.refused, before.refused + 1);
      }
    });
  }
  // The allowed resize changed the pod in place, and the eviction removed the other pod.
  const pods = await admin.makeApiClient(k8s.CoreV1Api).listNamespacedPod({ namespace: APP });
  const resized = pods.items.find((p) => p.metadata?.name === world.pod);
  assert.equal(resized?.spec?.containers[0]?.resources?.requests?.['cpu'], '150m');
  assert.equal(
    pods.items.some((p) => p.metadata?.name === world.evictablePod),
    false,
  );
});
