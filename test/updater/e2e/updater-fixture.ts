/**
 * End-to-end fixture for the updater on kube-sim: a cluster (cluster-fixture.ts), Deployments and
 * VPAs created through the API, and an {@link UpdaterLoop} reading watch caches over HTTPS and
 * writing through client-node, its API calls counted. `restartUpdater()` drops the loop and its
 * caches and builds new ones, as a restarted process or a new leader would.
 */
import * as k8s from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { silentLogger } from '../../../src/observability/logger.ts';
import { updaterOptions, type UpdaterOptions } from '../../../src/policy/update-thresholds.ts';
import { UpdaterCaches } from '../../../src/updater/updater-caches.ts';
import { detectCapabilities } from '../../../src/controller/updater-component.ts';
import { kubeUpdaterApi, type UpdaterApi } from '../../../src/updater/updater-api.ts';
import { UpdaterLoop, type LoopReport } from '../../../src/updater/updater-loop.ts';
import { UpdaterMetrics } from '../../../src/updater/updater-metrics.ts';
import type { MemoryUsageSource } from '../../../src/metrics/memory-usage-source.ts';
import type { AdmissionStatusSource } from '../../../src/updater/admission-status.ts';
import type { NodeSpec } from 'kube-sim/scenario';
import type { ServerVersion } from 'kube-sim/server-version';
import { startCluster, type ClusterFixture } from 'kube-sim/test/e2e/cluster-fixture';

export interface UpdaterFixture extends ClusterFixture {
  kc: k8s.KubeConfig;
  custom: k8s.CustomObjectsApi;
  /** Every write the updater sent: `resize ns/name`, `evict ns/name`, `event Kind/Reason`, `vpa-status ns/name`. */
  calls: string[];
  registry: Registry;
  /** The current loop (replaced by restartUpdater). */
  current(): UpdaterLoop;
  /** One updater loop at the simulated time; waits for the caches to see the latest writes first. */
  loop(): Promise<LoopReport>;
  restartUpdater(): Promise<void>;
}

/** Counts calls on their way to the API server. */
function counted(api: UpdaterApi, calls: string[]): UpdaterApi {
  return {
    resize: (r, m) => (calls.push(`resize ${r.namespace}/${r.name}`), api.resize(r, m)),
    evict: (ns, name, uid) => (calls.push(`evict ${ns}/${name}`), api.evict(ns, name, uid)),
    recordEvent: (e) => (calls.push(`event ${e.involvedObject.kind}/${e.reason}`), api.recordEvent(e)),
    patchVpaConditions: (ns, name, rv, conditions, manager) => (
      calls.push(`vpa-status ${ns}/${name}`),
      api.patchVpaConditions!(ns, name, rv, conditions, manager)
    ),
  };
}

/** Recent memory usage for the loop (a double of Prometheus). */
export interface FixtureExtras {
  usage?: MemoryUsageSource;
  /** The admission webhook's status the loop checks before evicting (default: not checked). */
  admissionStatus?: AdmissionStatusSource;
}

export async function startUpdaterFixture(
  version: ServerVersion,
  nodes: Partial<NodeSpec>[],
  options: Partial<UpdaterOptions> = {},
  extras: FixtureExtras = {},
): Promise<UpdaterFixture> {
  const f = await startCluster(version, nodes);
  const kc = new k8s.KubeConfig();
  kc.loadFromString(f.sim.server.kubeconfig());
  const calls: string[] = [];
  const api = counted(kubeUpdaterApi(kc), calls);
  const registry = new Registry();
  const metrics = new UpdaterMetrics(registry);
  const capabilities = await detectCapabilities(kc, true);
  let caches: UpdaterCaches | undefined;
  let loop: UpdaterLoop | undefined;
  const start = async () => {
    caches = new UpdaterCaches({ kubeConfig: kc, logger: silentLogger(), namespaces: undefined, selected: () => true });
    await caches.start();
    const clock = () => f.sim.cluster.clock.now();
    const current = new UpdaterLoop({
      sources: caches.sources,
      api,
      logger: silentLogger(),
      metrics,
      options: updaterOptions(options),
      capabilities,
      budget: { resizes: 100, evictions: 100 },
      clock,
      ...(extras.usage ? { usage: extras.usage } : {}),
      ...(extras.admissionStatus ? { admissionStatus: extras.admissionStatus } : {}),
    });
    loop = current;
    caches.onPod((pod) => current.podSeen(pod));
  };
  await start();
  const core = f.core;
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  /** Waits until the caches have the latest pods and VPAs (same names and resourceVersions as a fresh list). */
  const caughtUp = async () => {
    const key = (items: readonly { metadata?: { name?: string; resourceVersion?: string } }[]) =>
      items
        .map((o) => `${o.metadata!.name}@${o.metadata!.resourceVersion}`)
        .sort()
        .join();
    for (let i = 0; i < 300; i++) {
      const pods = await core.listPodForAllNamespaces();
      const vpas = (await custom.listClusterCustomObject({ group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' })) as {
        items: { metadata?: { name?: string; resourceVersion?: string } }[];
      };
      if (key(pods.items) === key(caches!.sources.pods()) && key(vpas.items) === key(caches!.sources.vpas() as typeof vpas.items)) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the caches did not catch up');
  };
  return {
    ...f,
    kc,
    custom,
    calls,
    registry,
    current: () => loop!,
    async loop() {
      await caughtUp();
      return loop!.runOnce(f.sim.cluster.clock.now());
    },
    async restartUpdater() {
      await caches?.stop();
      await start();
    },
    async close() {
      await caches?.stop();
      await f.close();
    },
  };
}

/** A Deployment `name` with pods labelled app=name. */
export function deployment(name: string, replicas: number, containers: k8s.V1Container[]): k8s.V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers } } },
  };
}

/** Creates a VPA for Deployment `name` (or `extra.target`) and sets its recommendation (status subresource). */
export async function createVpa(
  f: UpdaterFixture,
  name: string,
  mode: string,
  recommendations: { containerName: string; target: Record<string, string>; lowerBound?: Record<string, string>; upperBound?: Record<string, string> }[],
  extra: {
    minReplicas?: number;
    annotations?: Record<string, string>;
    maxAllowed?: Record<string, string>;
    conditions?: object[];
    target?: string;
    startupBoost?: object;
  } = {},
): Promise<void> {
  const ref = { group: 'autoscaling.k8s.io', version: 'v1', namespace: 'default', plural: 'verticalpodautoscalers' };
  await f.custom.createNamespacedCustomObject({
    ...ref,
    body: {
      apiVersion: 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      metadata: { name, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
      spec: {
        targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: extra.target ?? name },
        updatePolicy: { updateMode: mode, ...(extra.minReplicas !== undefined ? { minReplicas: extra.minReplicas } : {}) },
        ...(extra.maxAllowed ? { resourcePolicy: { containerPolicies: [{ containerName: '*', maxAllowed: extra.maxAllowed }] } } : {}),
        ...(extra.startupBoost ? { startupBoost: extra.startupBoost } : {}),
      },
    },
  });
  await f.custom.patchNamespacedCustomObjectStatus(
    {
      ...ref,
      name,
      body: { status: { recommendation: { containerRecommendations: recommendations }, ...(extra.conditions ? { conditions: extra.conditions } : {}) } },
      fieldManager: 'tailor-recommender',
    },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
}

/** The Deployment's live pods. */
export async function podsOf(f: ClusterFixture, app: string): Promise<k8s.V1Pod[]> {
  const list = await f.core.listNamespacedPod({ namespace: 'default', labelSelector: `app=${app}` });
  return list.items.filter((p) => !p.metadata!.deletionTimestamp);
}

/** `action reason` of each decision. */
export const summary = (r: LoopReport) => r.decisions.map((d) => `${d.podName.replace(/-[a-z0-9]+-[a-z0-9]+$/, '')} ${d.action} ${d.reason}`);

/**
 * A pod that cannot grow on its node: one node of 2 cores, the Deployment `web` (one Guaranteed
 * pod, cpu 1500m, memory 256Mi) and its VPA in `mode` recommending cpu 3 (lowerBound 2500m), so the
 * updater's first resize (1500m -> 3) is beyond the node: Infeasible up to 1.35, refused at
 * admission since 1.36. The fixture closes when the test ends.
 */
export async function webBeyondItsNode(t: { after(fn: () => Promise<void>): void }, version: ServerVersion, mode: string): Promise<UpdaterFixture> {
  const f = await startUpdaterFixture(version, [{ cpu: '2', memory: '8Gi' }]);
  t.after(() => f.close());
  const memory = { memory: '256Mi' };
  const resources = { requests: { cpu: '1500m', ...memory }, limits: { cpu: '1500m', ...memory } };
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', 1, [{ name: 'app', image: 'nginx:1.27', resources }]) });
  await f.tick(2000);
  await createVpa(f, 'web', mode, [{ containerName: 'app', target: { cpu: '3', ...memory }, lowerBound: { cpu: '2500m', ...memory } }], { minReplicas: 1 });
  return f;
}
