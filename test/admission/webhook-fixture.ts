/**
 * Test fixture: kube-sim plus Tailor's admission webhook on 127.0.0.1 (port 0), reached by URL,
 * with the webhook configurations registered through the API. `close()` stops both; register it
 * with `t.after`/`after` so it runs on failure too.
 */
import * as k8s from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { AdmissionWebhook, type AdmissionOptions, type TlsSource } from '../../src/admission/admission-webhook.ts';
import { silentLogger } from '../../src/observability/logger.ts';
import { startCluster, T0, type ClusterFixture } from 'kube-sim/test/e2e/cluster-fixture';

export const VPA_GROUP = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' } as const;
export const VPA_KEY = 'verticalpodautoscalers.autoscaling.k8s.io';

export interface WebhookFixture extends ClusterFixture {
  kubeConfig: k8s.KubeConfig;
  custom: k8s.CustomObjectsApi;
  webhook: AdmissionWebhook;
  registry: Registry;
  close(): Promise<void>;
}

/** Polls until `check` holds (real time; the webhook's watches are asynchronous). */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000, what: string | (() => string) = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${typeof what === 'function' ? what() : what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The webhook on 127.0.0.1 (port 0), registering its configurations `tailor` by URL, its CA Secret in
 * namespace `tailor`; the defaults of the manifests otherwise (3 s, failurePolicy Ignore).
 */
export function loopbackWebhookOptions(tls: TlsSource, now: () => number, overrides: Partial<AdmissionOptions> = {}): AdmissionOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    tls,
    register: true,
    configurationName: 'tailor',
    endpoint: (port) => ({ url: `https://127.0.0.1:${port}` }),
    namespace: 'tailor',
    namespaces: [],
    ignoreNamespaces: [],
    timeoutSeconds: 3,
    failurePolicy: 'Ignore',
    fieldManager: 'tailor-admission',
    now,
    ...overrides,
  };
}

/** Starts kube-sim and the webhook (namespace `tailor` holds its CA Secret). */
export async function startWebhookCluster(tls: TlsSource, overrides: Partial<AdmissionOptions> = {}): Promise<WebhookFixture> {
  const f = await startCluster('1.35');
  const kubeConfig = new k8s.KubeConfig();
  kubeConfig.loadFromString(f.sim.server.kubeconfig());
  const registry = new Registry();
  let webhook: AdmissionWebhook | undefined;
  try {
    await f.core.createNamespace({ body: { metadata: { name: 'tailor' } } });
    webhook = new AdmissionWebhook(
      kubeConfig,
      silentLogger(),
      registry,
      loopbackWebhookOptions(tls, () => T0, overrides),
    );
    await webhook.start();
    await until(() => webhook!.ready() === undefined, 5000, 'webhook ready');
  } catch (err) {
    await webhook?.stop();
    await f.close();
    throw err;
  }
  const started = webhook;
  return {
    ...f,
    kubeConfig,
    custom: kubeConfig.makeApiClient(k8s.CustomObjectsApi),
    webhook: started,
    registry,
    async close() {
      await started.stop();
      await f.close();
    },
  };
}

/** Creates a VPA for Deployment `target` (through the API, so the validating webhook sees it). */
export async function createVpa(f: WebhookFixture, namespace: string, name: string, target: string, spec: Record<string, unknown> = {}): Promise<void> {
  await f.custom.createNamespacedCustomObject({
    ...VPA_GROUP,
    namespace,
    body: {
      apiVersion: 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      metadata: { name, namespace },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, updatePolicy: { updateMode: 'Recreate' }, ...spec },
    },
  });
}

/** Writes a recommendation into a VPA's status (as the recommender would) and waits until the webhook has it. */
export async function recommend(f: WebhookFixture, namespace: string, name: string, recs: Record<string, Record<string, string>>): Promise<void> {
  f.sim.server.store.mutate(VPA_KEY, namespace, name, (draft) => {
    (draft as { status?: unknown }).status = {
      recommendation: { containerRecommendations: Object.entries(recs).map(([containerName, target]) => ({ containerName, target })) },
    };
  });
  const expected = JSON.stringify(Object.values(recs));
  await until(
    () => {
      const vpa = f.webhook.view.namespaceView(namespace).vpas.find((v) => v.metadata.name === name);
      const got = vpa?.valid?.status?.recommendation?.containerRecommendations?.map((r) => r.target);
      return JSON.stringify(got) === expected;
    },
    5000,
    `recommendation of ${namespace}/${name} in the webhook's cache`,
  );
}

/** A Deployment of `replicas` pods with one container `app` with these resources. */
export async function createDeployment(
  f: ClusterFixture,
  namespace: string,
  name: string,
  replicas: number,
  resources: k8s.V1ResourceRequirements,
): Promise<void> {
  await f.apps.createNamespacedDeployment({
    namespace,
    body: {
      metadata: { name },
      spec: {
        replicas,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources }] } },
      },
    },
  });
}

/** The pods of an app, by label. */
export async function podsOf(f: ClusterFixture, namespace: string, app: string): Promise<k8s.V1Pod[]> {
  return (await f.core.listNamespacedPod({ namespace, labelSelector: `app=${app}` })).items;
}
