/**
 * The updater's only window on the API server (injected into the executor, so tests and the
 * benchmark can count or fake it). Least privilege: `patch pods/resize` (on 1.27-1.32 `patch
 * pods`, the only way to resize there), `create pods/eviction`, `create events`. The executor never
 * patches a pod's metadata: its last change is read back from the pod's managedFields.
 */
import type { CoreV1Event, KubeConfig, V1Eviction } from '@kubernetes/client-node';
import { coreApi, customObjectsApi, MERGE_PATCH } from '../kube/kube-apis.ts';
import { KubeClient } from '../kube/kube-request.ts';
import type { VpaCondition } from '../api/vpa.ts';
import { JSON_PATCH_CONTENT_TYPE, type ResizeRequest } from './resize-patch.ts';

/** A Kubernetes Event to record (core/v1), built by updater-events.ts. */
export type UpdaterEvent = CoreV1Event;

/** What the executor calls. Each method throws client-node's errors unchanged (classified by the caller). */
export interface UpdaterApi {
  /** Sends the resize's JSON Patch, to `pods/resize` or (before 1.33) to the pod itself. */
  resize(request: ResizeRequest, fieldManager: string): Promise<void>;
  /** Evicts through the Eviction API; `uid` pins the pod, so a recreated namesake is not evicted. */
  evict(namespace: string, name: string, uid: string | undefined): Promise<void>;
  /** Records an event. */
  recordEvent(event: UpdaterEvent): Promise<void>;
  /**
   * Writes a VPA's `status.conditions` (merge patch on `/status`) pinned to `resourceVersion`:
   * a VPA changed since it was read gives 409 and the write is made again next loop. Optional so
   * that API doubles written before it stay valid; without it the HpaConflict condition is not written.
   */
  patchVpaConditions?(
    namespace: string,
    name: string,
    resourceVersion: string | undefined,
    conditions: readonly VpaCondition[],
    fieldManager: string,
  ): Promise<void>;
}

/** The UpdaterApi over Tailor's request layer (kube-apis.ts), one keep-alive connection for the loop's calls. */
export function kubeUpdaterApi(kubeConfig: KubeConfig): UpdaterApi {
  const client = new KubeClient(kubeConfig, { keepAlive: true });
  const core = coreApi(client);
  const custom = customObjectsApi(client);
  return {
    async resize(request, fieldManager) {
      const params = { namespace: request.namespace, name: request.name, body: request.patch, fieldManager };
      if (request.subresource === 'resize') await core.patchNamespacedPodResize(params, JSON_PATCH_CONTENT_TYPE);
      else await core.patchNamespacedPod(params, JSON_PATCH_CONTENT_TYPE);
    },
    async evict(namespace, name, uid) {
      const body: V1Eviction = {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name, namespace },
        ...(uid ? { deleteOptions: { preconditions: { uid } } } : {}),
      };
      await core.createNamespacedPodEviction({ namespace, name, body });
    },
    async recordEvent(event) {
      await core.createNamespacedEvent({ namespace: event.metadata.namespace ?? 'default', body: event });
    },
    async patchVpaConditions(namespace, name, resourceVersion, conditions, fieldManager) {
      const body = { ...(resourceVersion ? { metadata: { resourceVersion } } : {}), status: { conditions } };
      await custom.patchNamespacedCustomObjectStatus(
        { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers', namespace, name, body, fieldManager },
        MERGE_PATCH,
      );
    },
  };
}
