/**
 * The recommender's API calls, each wrapped in a {@link KubeApiError} that says what it was doing:
 * resolving a target to its pod selector, writing a VPA's status (merge patch on the status
 * subresource), applying, listing and deleting checkpoints, recording an Event. Every write carries the field manager
 * `tailor-recommender`.
 */
import type * as k8s from '@kubernetes/client-node';
import { CHECKPOINT_API_VERSION, type VerticalPodAutoscalerCheckpoint } from '../api/vpa-checkpoint.ts';
import type { CrossVersionObjectReference, VerticalPodAutoscalerStatus } from '../api/vpa.ts';
import { APPLY_PATCH, coreApi, customObjectsApi, MERGE_PATCH, type CoreApi, type CustomObjectsApi } from '../kube/kube-apis.ts';
import { KubeClient } from '../kube/kube-request.ts';
import { KubeApiError } from '../kube/errors.ts';
import { listObjects, resourcePath } from '../kube/list-objects.ts';
import type { LabelSelector } from './label-selector.ts';
import { scaleSelector, WORKLOAD_KINDS, workloadSelector } from './target-selector.ts';

export const FIELD_MANAGER = 'tailor-recommender';
const VPA_GROUP = 'autoscaling.k8s.io';
export const VPA_RESOURCE = { group: VPA_GROUP, version: 'v1', plural: 'verticalpodautoscalers' };
export const CHECKPOINT_RESOURCE = { group: VPA_GROUP, version: 'v1', plural: 'verticalpodautoscalercheckpoints' };

function splitApiVersion(apiVersion: string | undefined): { group: string; version: string } {
  const [a, b] = (apiVersion ?? '').split('/');
  return b === undefined ? { group: '', version: a || 'v1' } : { group: a!, version: b };
}

export class RecommenderKube {
  private readonly client: KubeClient;
  private readonly custom: CustomObjectsApi;
  private readonly core: CoreApi;
  /** Discovery answers per apiVersion (as client-node's KubernetesObjectApi caches them): kind -> plural. */
  private readonly discovered = new Map<string, k8s.V1APIResourceList>();

  constructor(private readonly kubeConfig: k8s.KubeConfig) {
    this.client = new KubeClient(kubeConfig);
    this.custom = customObjectsApi(this.client);
    this.core = coreApi(this.client);
  }

  /** The plural of a kind from the API's discovery document (`/apis/group/version`), cached per apiVersion. */
  private async pluralOf(apiVersion: string, kind: string): Promise<string | undefined> {
    let list = this.discovered.get(apiVersion);
    if (!list) {
      const path = `/${apiVersion.includes('/') ? 'apis' : 'api'}/${apiVersion}`;
      list = await this.client.typed<k8s.V1APIResourceList>({ method: 'GET', path }, 'V1APIResourceList');
      this.discovered.set(apiVersion, list);
    }
    return list.resources.find((r) => r.kind === kind)?.name;
  }

  /**
   * The pod selector of a VPA's target: from the object for the well-known kinds, else from the
   * kind's `scale` subresource (found through discovery).
   */
  async targetSelector(namespace: string, ref: CrossVersionObjectReference): Promise<LabelSelector> {
    const doing = `read ${ref.kind} ${namespace}/${ref.name}`;
    const known = WORKLOAD_KINDS[ref.kind];
    if (known) {
      let object: unknown;
      try {
        object = await this.client.typed({ method: 'GET', path: `${resourcePath(known, namespace)}/${encodeURIComponent(ref.name)}` }, 'any');
      } catch (err) {
        throw new KubeApiError(doing, err);
      }
      return workloadSelector(ref.kind, object);
    }
    const { group, version } = splitApiVersion(ref.apiVersion);
    let plural: string | undefined;
    try {
      plural = await this.pluralOf(ref.apiVersion ?? 'v1', ref.kind);
    } catch (err) {
      throw new KubeApiError(`discover ${ref.apiVersion}/${ref.kind}`, err);
    }
    if (!plural) throw new KubeApiError(doing, { code: 404, body: { reason: 'NotFound', message: `the API has no kind ${ref.kind} in ${ref.apiVersion}` } });
    let scale: unknown;
    try {
      scale = await this.custom.getNamespacedCustomObjectScale({ group, version, namespace, plural, name: ref.name });
    } catch (err) {
      throw new KubeApiError(`read ${ref.kind} ${namespace}/${ref.name}/scale`, err);
    }
    return scaleSelector(ref.kind, scale);
  }

  /** Writes a VPA's recommendation and conditions (merge patch on /status). */
  async patchVpaStatus(namespace: string, name: string, status: VerticalPodAutoscalerStatus): Promise<void> {
    try {
      await this.custom.patchNamespacedCustomObjectStatus({ ...VPA_RESOURCE, namespace, name, body: { status }, fieldManager: FIELD_MANAGER }, MERGE_PATCH);
    } catch (err) {
      throw new KubeApiError(`write status of VPA ${namespace}/${name}`, err);
    }
  }

  /** Creates or replaces a checkpoint (server-side apply). */
  async applyCheckpoint(checkpoint: VerticalPodAutoscalerCheckpoint): Promise<void> {
    const namespace = checkpoint.metadata.namespace!;
    try {
      await this.custom.patchNamespacedCustomObject(
        { ...CHECKPOINT_RESOURCE, namespace, name: checkpoint.metadata.name, body: checkpoint, fieldManager: FIELD_MANAGER, force: true },
        APPLY_PATCH,
      );
    } catch (err) {
      throw new KubeApiError(`write checkpoint ${namespace}/${checkpoint.metadata.name}`, err);
    }
  }

  /** Every checkpoint (of one namespace, or all). */
  async listCheckpoints(namespace?: string): Promise<VerticalPodAutoscalerCheckpoint[]> {
    try {
      return (await listObjects<VerticalPodAutoscalerCheckpoint & k8s.KubernetesObject>(this.kubeConfig, resourcePath(CHECKPOINT_RESOURCE, namespace))).items;
    } catch (err) {
      throw new KubeApiError(`list checkpoints${namespace ? ` in ${namespace}` : ''}`, err);
    }
  }

  /** Records an Event (core/v1). */
  async createEvent(event: k8s.CoreV1Event): Promise<void> {
    const namespace = event.metadata?.namespace ?? 'default';
    try {
      await this.core.createNamespacedEvent({ namespace, body: event });
    } catch (err) {
      throw new KubeApiError(`record event on ${event.involvedObject.kind} ${namespace}/${event.involvedObject.name}`, err);
    }
  }

  async deleteCheckpoint(namespace: string, name: string): Promise<void> {
    try {
      await this.custom.deleteNamespacedCustomObject({ ...CHECKPOINT_RESOURCE, namespace, name });
    } catch (err) {
      throw new KubeApiError(`delete checkpoint ${namespace}/${name}`, err);
    }
  }
}

export { CHECKPOINT_API_VERSION };
