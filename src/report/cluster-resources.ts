/**
 * Current requests and limits read from the cluster instead of kube-state-metrics (`tailor
 * recommend --kubeconfig`): one list call per namespace for pods, ReplicaSets and Jobs (never one
 * call per pod), mapped to the same `ContainerResources` and `OwnerLink`s the Prometheus source
 * gives, so owners resolve to workloads the same way (Pod -> ReplicaSet -> Deployment, Pod -> Job
 * -> CronJob). The mapping is pure; the lister is injected.
 */
import type * as k8s from '@kubernetes/client-node';
import { appsApi, batchApi, coreApi } from '../kube/kube-apis.ts';
import { KubeClient } from '../kube/kube-request.ts';
import pLimit from 'p-limit';
import { parseCpu, parseMemory } from 'kube-basics/quantity';
import type { ContainerKey, ContainerResources, OwnerLink } from '../metrics/metrics-source.ts';
import { ordinaryInitContainers } from '../policy/init-containers.ts';
import { runtimeFitWarnings } from '../policy/runtime-fit.ts';

/** The three list calls per namespace. */
export interface ClusterLister {
  pods(namespace: string): Promise<k8s.V1Pod[]>;
  replicaSets(namespace: string): Promise<k8s.V1ReplicaSet[]>;
  jobs(namespace: string): Promise<k8s.V1Job[]>;
}

/** What the report needs from the cluster. */
export interface ClusterResources {
  resources: ContainerResources[];
  links: OwnerLink[];
  /** Containers whose memory resizePolicy does not fit their runtime (runtime-fit.ts), one line per owner and container. */
  runtimeWarnings?: string[];
  /** The ordinary init containers of the pods (policy/init-containers.ts): their usage is no workload container's. */
  initContainers?: ContainerKey[];
}

/** The ordinary init containers of `pods`, every phase (a finished pod's ran too). */
export function podInitContainers(pods: readonly k8s.V1Pod[]): ContainerKey[] {
  return pods.flatMap((pod) =>
    ordinaryInitContainers(pod).map((container) => ({ namespace: pod.metadata?.namespace ?? '', pod: pod.metadata?.name ?? '', container })),
  );
}

/**
 * The resizePolicy misfits of the pods' containers, once per controller owner (a ReplicaSet's pods
 * share a template): `shop/ReplicaSet/api-7c9: container app runs jvm (...), which sizes ...`.
 */
export function podRuntimeWarnings(pods: readonly k8s.V1Pod[]): string[] {
  const out = new Set<string>();
  for (const pod of pods) {
    const owner = pod.metadata?.ownerReferences?.find((r) => r.controller) ?? pod.metadata?.ownerReferences?.[0];
    const where = `${pod.metadata?.namespace ?? ''}/${owner ? `${owner.kind}/${owner.name}` : `Pod/${pod.metadata?.name ?? ''}`}`;
    for (const w of runtimeFitWarnings(pod.spec?.containers ?? [])) out.add(`${where}: ${w.message}`);
  }
  return [...out].sort();
}

/** Reading from the cluster failed; the message names the namespace, the cause is kept. */
export class ClusterReadError extends Error {
  override readonly name = 'ClusterReadError';
}

/** A lister over the API server (kube-apis.ts: client-node's object model). */
export function kubeClusterLister(kc: k8s.KubeConfig): ClusterLister {
  const client = new KubeClient(kc);
  const core = coreApi(client);
  const apps = appsApi(client);
  const batch = batchApi(client);
  return {
    pods: async (namespace) => (await core.listNamespacedPod({ namespace })).items,
    replicaSets: async (namespace) => (await apps.listNamespacedReplicaSet({ namespace })).items,
    jobs: async (namespace) => (await batch.listNamespacedJob({ namespace })).items,
  };
}

/** Cores from a Kubernetes CPU quantity ("250m" -> 0.25); undefined when absent. */
function cores(q: string | undefined): number | undefined {
  return q === undefined ? undefined : parseCpu(q) / 1000;
}

function bytes(q: string | undefined): number | undefined {
  return q === undefined ? undefined : parseMemory(q);
}

/**
 * The requests and limits of each container of the pods that hold resources now (Succeeded and
 * Failed pods are left out: they reserve nothing). Example: container `app` with requests
 * {cpu: 250m, memory: 256Mi} -> requests {cpu: 0.25, memory: 268435456}.
 */
export function podResources(pods: readonly k8s.V1Pod[]): ContainerResources[] {
  const out: ContainerResources[] = [];
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    for (const c of pod.spec?.containers ?? []) {
      const req = c.resources?.requests ?? {};
      const lim = c.resources?.limits ?? {};
      out.push({
        key: { namespace, pod: name, container: c.name },
        requests: { cpu: cores(req['cpu']), memory: bytes(req['memory']) },
        limits: { cpu: cores(lim['cpu']), memory: bytes(lim['memory']) },
      });
    }
  }
  return out;
}

/** The controller owner of an object, as an OwnerLink of `kind`/`name`. */
function controllerLink(kind: OwnerLink['kind'], meta: k8s.V1ObjectMeta | undefined): OwnerLink | undefined {
  const refs = meta?.ownerReferences ?? [];
  const owner = refs.find((r) => r.controller) ?? refs[0];
  if (!owner || !meta?.name) return undefined;
  return { namespace: meta.namespace ?? '', kind, name: meta.name, ownerKind: owner.kind, ownerName: owner.name };
}

/** Owner links of pods, ReplicaSets and Jobs (the controller reference of each). */
export function ownerLinks(pods: readonly k8s.V1Pod[], replicaSets: readonly k8s.V1ReplicaSet[], jobs: readonly k8s.V1Job[]): OwnerLink[] {
  const links: Array<OwnerLink | undefined> = [
    ...pods.map((p) => controllerLink('Pod', p.metadata)),
    ...replicaSets.map((r) => controllerLink('ReplicaSet', r.metadata)),
    ...jobs.map((j) => controllerLink('Job', j.metadata)),
  ];
  return links.filter((l): l is OwnerLink => l !== undefined);
}

/** Reads every namespace (three list calls each, `concurrency` namespaces at a time). */
export async function readClusterResources(lister: ClusterLister, namespaces: readonly string[], concurrency = 4): Promise<ClusterResources> {
  const limit = pLimit(concurrency);
  const parts = await Promise.all(
    namespaces.map((namespace) =>
      limit(async () => {
        try {
          const [pods, replicaSets, jobs] = await Promise.all([lister.pods(namespace), lister.replicaSets(namespace), lister.jobs(namespace)]);
          return {
            resources: podResources(pods),
            links: ownerLinks(pods, replicaSets, jobs),
            runtimeWarnings: podRuntimeWarnings(pods),
            initContainers: podInitContainers(pods),
          };
        } catch (err) {
          throw new ClusterReadError(
            `could not list pods, ReplicaSets and Jobs of namespace ${namespace}: ${err instanceof Error ? err.message : String(err)}`,
            { cause: err },
          );
        }
      }),
    ),
  );
  return {
    resources: parts.flatMap((p) => p.resources),
    links: parts.flatMap((p) => p.links),
    runtimeWarnings: parts.flatMap((p) => p.runtimeWarnings),
    initContainers: parts.flatMap((p) => p.initContainers),
  };
}
