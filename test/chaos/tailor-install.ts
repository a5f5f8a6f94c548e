/**
 * Tailor installed for the chaos lane as a user installs it: `kubectl apply -k` of an overlay of
 * manifests/install that sets the image the lane imported, the Prometheus on this machine, short
 * loops (so a run of minutes sees many decisions) and two replicas of the updater and the
 * recommender (a leader and a standby, what the leader faults need). `kubectl delete -k` removes it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { waitFor } from '../real-cluster/lane-cluster.ts';
import { COMPONENTS, TAILOR_NAMESPACE } from './tailor-faults.ts';
import type { UpdaterRule } from './variants.ts';

/** What the overlay sets. */
export interface ChaosInstall {
  /** The image as imported into the nodes (`name:tag`). */
  readonly image: string;
  /** Tailor's Prometheus, as the pods reach it. */
  readonly prometheusUrl: string;
  /** The updater's and recommender's loop (TAILOR_INTERVAL, seconds). */
  readonly loopSeconds: number;
  /** Other settings of tailor-config (KEY=value). */
  readonly settings?: readonly string[];
  /**
   * The API server every component talks to, in place of the `kubernetes` Service: the chaos
   * proxy (KUBERNETES_SERVICE_HOST and _PORT set on each container, which the in-cluster
   * configuration reads; a container's own env wins over the kubelet's service variables).
   */
  readonly apiServer?: { readonly host: string; readonly port: number };
  /** Rules added to the updater's ClusterRole (a broken variant's, e.g. deleting pods). */
  readonly updaterRules?: readonly UpdaterRule[];
}

/** The ClusterRole manifests/base/rbac-updater.yaml gives the updater. */
const UPDATER_CLUSTER_ROLE = 'tailor-updater';

/** JSON patches appending `rules` to the updater's ClusterRole. */
function updaterRulePatches(rules: readonly UpdaterRule[]): object[] {
  return [
    {
      target: { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', name: UPDATER_CLUSTER_ROLE },
      patch: JSON.stringify(rules.map((value) => ({ op: 'add', path: '/rules/-', value }))),
    },
  ];
}

/** A strategic merge patch setting the API server's address on each of Tailor's containers. */
function apiServerPatches(api: { host: string; port: number }): object[] {
  return Object.values(COMPONENTS).map((c) => ({
    target: { kind: 'Deployment', name: c.deployment },
    patch: k8s.dumpYaml({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: c.deployment, namespace: TAILOR_NAMESPACE },
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: c.container,
                env: [
                  { name: 'KUBERNETES_SERVICE_HOST', value: api.host },
                  { name: 'KUBERNETES_SERVICE_PORT', value: String(api.port) },
                ],
              },
            ],
          },
        },
      },
    }),
  }));
}

/** The overlay's kustomization.yaml for an overlay directory `dir`. */
export function chaosOverlay(dir: string, install: ChaosInstall): string {
  const at = install.image.lastIndexOf(':');
  const patches = [
    ...(install.apiServer ? apiServerPatches(install.apiServer) : []),
    ...(install.updaterRules && install.updaterRules.length > 0 ? updaterRulePatches(install.updaterRules) : []),
  ];
  return k8s.dumpYaml({
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: [relative(dir, resolve('manifests/install'))],
    configMapGenerator: [
      {
        name: 'tailor-config',
        namespace: TAILOR_NAMESPACE,
        behavior: 'merge',
        literals: [
          `TAILOR_PROMETHEUS_URL=${install.prometheusUrl}`,
          `TAILOR_INTERVAL=${install.loopSeconds}s`,
          `TAILOR_CHECKPOINT_INTERVAL=${install.loopSeconds}s`,
          ...(install.settings ?? []),
        ],
      },
    ],
    replicas: [
      { name: COMPONENTS.updater.deployment, count: 2 },
      { name: COMPONENTS.recommender.deployment, count: 2 },
    ],
    images: [{ name: 'tailor', newName: install.image.slice(0, at), newTag: install.image.slice(at + 1) }],
    ...(patches.length > 0 ? { patches } : {}),
  });
}

/** Runs kubectl with the lane's kubeconfig; its stdout, or an error with its output. */
export function kubectl(kubeconfig: string, ...args: string[]): string {
  const out = spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${out.status}): ${out.stderr}${out.stdout}`);
  return out.stdout;
}

/** Writes the overlay under `work`, applies it and waits until every Deployment is Ready; resolves with the overlay's directory. */
export async function installTailor(kc: k8s.KubeConfig, kubeconfig: string, work: string, install: ChaosInstall): Promise<string> {
  const dir = join(work, 'tailor-overlay');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'kustomization.yaml'), chaosOverlay(dir, install));
  kubectl(kubeconfig, 'apply', '-k', dir);
  await tailorReady(kc, 300_000);
  return dir;
}

/** Waits until each of Tailor's Deployments has all its replicas ready and updated. */
export async function tailorReady(kc: k8s.KubeConfig, timeoutMs: number): Promise<void> {
  const apps = kc.makeApiClient(k8s.AppsV1Api);
  let last = '';
  await waitFor(
    "Tailor's Deployments Ready",
    timeoutMs,
    async () => {
      const all = await Promise.all(Object.values(COMPONENTS).map((c) => apps.readNamespacedDeployment({ namespace: TAILOR_NAMESPACE, name: c.deployment })));
      last = all.map((d) => `${d.metadata?.name} ${d.status?.readyReplicas ?? 0}/${d.spec?.replicas}`).join(', ');
      return all.every((d) => (d.status?.readyReplicas ?? 0) === d.spec?.replicas && (d.status?.updatedReplicas ?? 0) === d.spec?.replicas) ? true : undefined;
    },
    () => last,
  );
}

/** Deletes what the overlay applied (not waiting for the namespace to go). */
export function uninstallTailor(kubeconfig: string, dir: string): void {
  spawnSync('kubectl', ['--kubeconfig', kubeconfig, 'delete', '-k', dir, '--ignore-not-found', '--wait=false'], { encoding: 'utf8' });
}
