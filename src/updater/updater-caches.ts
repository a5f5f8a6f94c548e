/**
 * The updater's in-memory view of the cluster: watch caches (list + watch, src/kube/watch-cache.ts)
 * of pods, VPAs, LimitRanges, HPAs, Deployments, StatefulSets and Jobs (whose owner tells a CronJob's
 * pods apart), one per watched namespace (or one cluster-wide), filtered by the namespace selection. PodDisruptionBudgets are not watched: the
 * Eviction API applies them (a refusal is a 429 the executor retries in a later loop).
 */
import type { KubeConfig, KubernetesObject, V1LimitRange, V1Pod, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { WatchCache, type ResourceRef } from '../kube/watch-cache.ts';
import type { Logger } from '../observability/logger.ts';
import type { UpdaterSources } from './updater-loop.ts';
import type { WorkloadObject } from './workload-groups.ts';

const RESOURCES = {
  pods: { group: '', version: 'v1', plural: 'pods' },
  vpas: { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' },
  limitRanges: { group: '', version: 'v1', plural: 'limitranges' },
  hpas: { group: 'autoscaling', version: 'v2', plural: 'horizontalpodautoscalers' },
  deployments: { group: 'apps', version: 'v1', plural: 'deployments' },
  statefulSets: { group: 'apps', version: 'v1', plural: 'statefulsets' },
  jobs: { group: 'batch', version: 'v1', plural: 'jobs' },
} as const satisfies Record<string, ResourceRef>;

type Key = keyof typeof RESOURCES;

/** Watch caches for the updater; `sources` reads their current contents. */
export class UpdaterCaches {
  private readonly caches = new Map<Key, WatchCache<KubernetesObject>[]>();
  readonly sources: UpdaterSources;

  constructor(options: { kubeConfig: KubeConfig; logger: Logger; namespaces: readonly string[] | undefined; selected: (namespace: string) => boolean }) {
    const namespaces = options.namespaces ?? [undefined];
    for (const [key, resource] of Object.entries(RESOURCES) as [Key, ResourceRef][]) {
      this.caches.set(
        key,
        namespaces.map(
          (namespace) =>
            new WatchCache<KubernetesObject>({
              kubeConfig: options.kubeConfig,
              resource,
              ...(namespace ? { namespace } : {}),
              logger: options.logger.child({ cache: resource.plural }),
            }),
        ),
      );
    }
    const list = <T>(key: Key): T[] =>
      (this.caches.get(key) ?? []).flatMap((c) => c.list()).filter((o) => options.selected(o.metadata?.namespace ?? '')) as T[];
    this.sources = {
      pods: () => list<V1Pod>('pods'),
      vpas: () => list<unknown>('vpas'),
      limitRanges: () => list<V1LimitRange>('limitRanges'),
      hpas: () => list<V2HorizontalPodAutoscaler>('hpas'),
      workloads: () => [
        ...list<WorkloadObject>('deployments').map((w) => ({ ...w, kind: 'Deployment' })),
        ...list<WorkloadObject>('statefulSets').map((w) => ({ ...w, kind: 'StatefulSet' })),
        ...list<WorkloadObject>('jobs').map((w) => ({ ...w, kind: 'Job' })),
      ],
    };
  }

  /** Calls `listener` with every pod added or updated (watch events), e.g. to see a resize complete. */
  onPod(listener: (pod: V1Pod) => void): void {
    for (const cache of this.caches.get('pods') ?? [])
      cache.on((type, obj) => {
        if (type !== 'delete') listener(obj as V1Pod);
      });
  }

  /** Starts every cache and resolves when all have listed once. */
  async start(): Promise<void> {
    const all = [...this.caches.values()].flat();
    await Promise.all(all.map((c) => c.start()));
    await Promise.all(all.map((c) => c.synced()));
  }

  async stop(): Promise<void> {
    await Promise.all([...this.caches.values()].flat().map((c) => c.stop()));
  }
}
