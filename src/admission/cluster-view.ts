/**
 * The webhook's in-memory view of the cluster, kept by watches so that a review is answered
 * without API calls: VPAs (validated once per object version), LimitRanges, and the controllers
 * of ReplicaSets and Jobs for the top-most-owner walk. Ready when every collection has listed once.
 * Watches cover all namespaces; which namespaces reach the webhook at all is the webhook
 * configuration's namespaceSelector. Each collection is a {@link WatchCache} (the watch cache of
 * the recommender and the updater: restarted after errors, re-listed after 410 Gone); the webhook
 * serves while some have not listed yet, and its readiness names them. ReplicaSets and Jobs are
 * cached whole; their memory grows with the number of them (old ReplicaSets included).
 */
import type { KubeConfig, KubernetesObject, V1Job, V1LimitRange, V1ReplicaSet } from '@kubernetes/client-node';
import { WatchCache, type ResourceRef } from '../kube/watch-cache.ts';
import { formatFieldErrors } from '../api/field-errors.ts';
import { validateVpa } from '../api/validate-vpa.ts';
import type { Logger } from '../observability/logger.ts';
import type { CachedVpa, PodAdmissionView } from './pod-admission.ts';
import { controllerRef, type FollowedKind, type OwnerRef } from './top-most-owner.ts';

type VpaObject = KubernetesObject & { spec?: unknown; status?: unknown };

export class ClusterView {
  private readonly vpas: WatchCache<VpaObject>;
  private readonly limitRanges: WatchCache<V1LimitRange>;
  private readonly replicaSets: WatchCache<V1ReplicaSet>;
  private readonly jobs: WatchCache<V1Job>;
  /** Validation results per cached object; an update replaces the object, so entries follow it. */
  private readonly validated = new WeakMap<object, CachedVpa>();

  constructor(kubeConfig: KubeConfig, logger: Logger) {
    const cache = <T extends KubernetesObject>(resource: ResourceRef) => new WatchCache<T>({ kubeConfig, resource, logger });
    this.vpas = cache({ group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' });
    this.limitRanges = cache({ group: '', version: 'v1', plural: 'limitranges' });
    this.replicaSets = cache({ group: 'apps', version: 'v1', plural: 'replicasets' });
    this.jobs = cache({ group: 'batch', version: 'v1', plural: 'jobs' });
  }

  private get all(): WatchCache<KubernetesObject>[] {
    return [this.vpas, this.limitRanges, this.replicaSets, this.jobs] as WatchCache<KubernetesObject>[];
  }

  /** Starts every watch; resolves after the first attempts (see `notSynced`). */
  async start(): Promise<void> {
    await Promise.all(this.all.map((c) => c.start()));
  }

  async stop(): Promise<void> {
    await Promise.all(this.all.map((c) => c.stop()));
  }

  /** The collections (resource plurals) that have not listed yet (empty = ready). */
  notSynced(): string[] {
    return this.all.filter((c) => !c.isSynced).map((c) => c.resource.plural);
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
    const object = kind === 'ReplicaSet' ? this.replicaSets.get(namespace, name) : this.jobs.get(namespace, name);
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
