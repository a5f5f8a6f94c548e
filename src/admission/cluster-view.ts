/**
 * The webhook's in-memory view of the cluster, kept by watches so that a review is answered
 * without API calls: VPAs (validated once per object version), LimitRanges, and the controllers
 * of ReplicaSets and Jobs for the top-most-owner walk. Ready when every collection has listed once.
 * Watches cover all namespaces; which namespaces reach the webhook at all is the webhook
 * configuration's namespaceSelector. ReplicaSets and Jobs are cached whole (client-node's
 * ListWatch); their memory grows with the number of them (old ReplicaSets included).
 */
import type { KubeConfig, KubernetesListObject, KubernetesObject, V1Job, V1LimitRange, V1ReplicaSet } from '@kubernetes/client-node';
import { appsApi, batchApi, coreApi, customObjectsApi } from '../kube/kube-apis.ts';
import { KubeClient } from '../kube/kube-request.ts';
import { formatFieldErrors } from '../api/field-errors.ts';
import { validateVpa } from '../api/validate-vpa.ts';
import type { Logger } from '../observability/logger.ts';
import type { CachedVpa, PodAdmissionView } from './pod-admission.ts';
import { controllerRef, type FollowedKind, type OwnerRef } from './top-most-owner.ts';
import { WatchedCollection } from './watched-collection.ts';

type VpaObject = KubernetesObject & { spec?: unknown; status?: unknown };

export class ClusterView {
  private readonly vpas: WatchedCollection<VpaObject>;
  private readonly limitRanges: WatchedCollection<V1LimitRange>;
  private readonly replicaSets: WatchedCollection<V1ReplicaSet>;
  private readonly jobs: WatchedCollection<V1Job>;
  /** Validation results per cached object; an update replaces the object, so entries follow it. */
  private readonly validated = new WeakMap<object, CachedVpa>();

  constructor(kubeConfig: KubeConfig, logger: Logger) {
    const client = new KubeClient(kubeConfig);
    const core = coreApi(client);
    const apps = appsApi(client);
    const batch = batchApi(client);
    const custom = customObjectsApi(client);
    const listVpas = async () =>
      (await custom.listClusterCustomObject({ group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' })) as KubernetesListObject<VpaObject>;
    this.vpas = new WatchedCollection('verticalpodautoscalers', kubeConfig, '/apis/autoscaling.k8s.io/v1/verticalpodautoscalers', listVpas, logger);
    this.limitRanges = new WatchedCollection('limitranges', kubeConfig, '/api/v1/limitranges', () => core.listLimitRangeForAllNamespaces(), logger);
    this.replicaSets = new WatchedCollection('replicasets', kubeConfig, '/apis/apps/v1/replicasets', () => apps.listReplicaSetForAllNamespaces(), logger);
    this.jobs = new WatchedCollection('jobs', kubeConfig, '/apis/batch/v1/jobs', () => batch.listJobForAllNamespaces(), logger);
  }

  private get all(): WatchedCollection<KubernetesObject>[] {
    return [this.vpas, this.limitRanges, this.replicaSets, this.jobs] as WatchedCollection<KubernetesObject>[];
  }

  /** Starts every watch; resolves after the first attempts (see `notSynced`). */
  async start(): Promise<void> {
    await Promise.all(this.all.map((c) => c.start()));
  }

  async stop(): Promise<void> {
    await Promise.all(this.all.map((c) => c.stop()));
  }

  /** The collections that have not listed yet (empty = ready). */
  notSynced(): string[] {
    return this.all.filter((c) => !c.synced).map((c) => c.name);
  }

  /** The number of cached VPAs. */
  vpaCount(): number {
    return this.vpas.list().length;
  }

  /** The view of one namespace for `admitPod`. */
  namespaceView(namespace: string): PodAdmissionView {
    return {
      vpas: this.vpas.list(namespace).map((o) => this.cachedVpa(o)),
      limitRanges: this.limitRanges.list(namespace),
      controllerOf: (kind, ns, name) => this.controllerOf(kind, ns, name),
    };
  }

  private controllerOf(kind: FollowedKind, namespace: string, name: string): OwnerRef | null | undefined {
    const object = kind === 'ReplicaSet' ? this.replicaSets.get(name, namespace) : this.jobs.get(name, namespace);
    if (!object) return undefined;
    return controllerRef(object.metadata?.ownerReferences) ?? null;
  }

  private cachedVpa(object: VpaObject): CachedVpa {
    const hit = this.validated.get(object);
    if (hit) return hit;
    const result = validateVpa(object);
    const meta = object.metadata ?? {};
    const entry: CachedVpa = {
      metadata: { name: meta.name ?? '', namespace: meta.namespace, creationTimestamp: meta.creationTimestamp },
      spec: object.spec as CachedVpa['spec'],
      valid: result.ok ? result.vpa : undefined,
      ...(result.ok ? {} : { problems: formatFieldErrors(result.errors).split('\n').join('; ') }),
    };
    this.validated.set(object, entry);
    return entry;
  }
}
