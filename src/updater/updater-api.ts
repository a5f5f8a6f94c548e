/**
 * The updater's only window on the API server (injected into the executor, so tests and the
 * benchmark can count or fake it). Least privilege: `patch pods/resize` (on 1.27-1.32 `patch
 * pods`, the only way to resize there), `create pods/eviction`, `create events`. The executor never
 * patches a pod's metadata: its last change is read back from the pod's managedFields.
 */
import * as k8s from '@kubernetes/client-node';
import type { ResizeRequest } from './resize-patch.ts';

/** A Kubernetes Event to record (core/v1), built by updater-events.ts. */
export type UpdaterEvent = k8s.CoreV1Event;

/** What the executor calls. Each method throws client-node's errors unchanged (classified by the caller). */
export interface UpdaterApi {
  /** Sends the resize's JSON Patch, to `pods/resize` or (before 1.33) to the pod itself. */
  resize(request: ResizeRequest, fieldManager: string): Promise<void>;
  /** Evicts through the Eviction API; `uid` pins the pod, so a recreated namesake is not evicted. */
  evict(namespace: string, name: string, uid: string | undefined): Promise<void>;
  /** Records an event. */
  recordEvent(event: UpdaterEvent): Promise<void>;
}

const JSON_PATCH = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch);

/** The UpdaterApi over @kubernetes/client-node. */
export function kubeUpdaterApi(kubeConfig: k8s.KubeConfig): UpdaterApi {
  const core = kubeConfig.makeApiClient(k8s.CoreV1Api);
  return {
    async resize(request, fieldManager) {
      const params = { namespace: request.namespace, name: request.name, body: request.patch, fieldManager };
      if (request.subresource === 'resize') await core.patchNamespacedPodResize(params, JSON_PATCH);
      else await core.patchNamespacedPod(params, JSON_PATCH);
    },
    async evict(namespace, name, uid) {
      const body: k8s.V1Eviction = {
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
  };
}
