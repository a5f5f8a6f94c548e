/**
 * The updater's only window on the API server (injected into the executor, so tests and the
 * benchmark can count or fake it). Least privilege: `patch pods/resize` (on 1.27-1.32 `patch
 * pods`, the only way to resize there), `create pods/eviction`, `create events`. The executor never
 * patches a pod's metadata: its last change is read back from the pod's managedFields.
 */
import { Agent } from 'node:https';
import * as k8s from '@kubernetes/client-node';
import type { VpaCondition } from '../api/vpa.ts';
import { JSON_PATCH_CONTENT_TYPE, type ResizeRequest } from './resize-patch.ts';

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
  /**
   * Writes a VPA's `status.conditions` (merge patch on `/status`) pinned to `resourceVersion`:
   * a VPA changed since it was read gives 409 and the write is made again next loop. Optional so
   * that API doubles written before it stay valid; without it the HpaConflict condition is not written.
   */
  patchVpaConditions?(namespace: string, name: string, resourceVersion: string | undefined, conditions: readonly VpaCondition[], fieldManager: string): Promise<void>;
}

/**
 * client-node 1.x builds a new HTTPS agent for every request, so every call pays a TLS handshake
 * (about 2 ms of CPU each: 1,500 calls of one loop, about 3 s). This middleware swaps in one
 * keep-alive agent with the same TLS options (CA, client certificate), made from the first
 * request's; proxy agents are left alone.
 */
function keepAlive(): k8s.ObservableMiddleware {
  let shared: Agent | undefined;
  return {
    pre: (context) => {
      const agent = context.getAgent();
      if (agent instanceof Agent && agent.constructor === Agent) {
        shared ??= new Agent({ ...agent.options, keepAlive: true });
        context.setAgent(shared);
      }
      return new k8s.Observable(Promise.resolve(context));
    },
    post: (response) => new k8s.Observable(Promise.resolve(response)),
  };
}

/** The UpdaterApi over @kubernetes/client-node. */
export function kubeUpdaterApi(kubeConfig: k8s.KubeConfig): UpdaterApi {
  const core = kubeConfig.makeApiClient(k8s.CoreV1Api);
  const agent = keepAlive();
  const OPTIONS = { middleware: [agent], middlewareMergeStrategy: 'append' as const };
  const JSON_PATCH = k8s.setHeaderOptions('Content-Type', JSON_PATCH_CONTENT_TYPE, OPTIONS);
  const MERGE_PATCH = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch, OPTIONS);
  const custom = kubeConfig.makeApiClient(k8s.CustomObjectsApi);
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
      await core.createNamespacedPodEviction({ namespace, name, body }, OPTIONS);
    },
    async recordEvent(event) {
      await core.createNamespacedEvent({ namespace: event.metadata.namespace ?? 'default', body: event }, OPTIONS);
    },
    async patchVpaConditions(namespace, name, resourceVersion, conditions, fieldManager) {
      const body = { ...(resourceVersion ? { metadata: { resourceVersion } } : {}), status: { conditions } };
      await custom.patchNamespacedCustomObjectStatus({ group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers', namespace, name, body, fieldManager }, MERGE_PATCH);
    },
  };
}
