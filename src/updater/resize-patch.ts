/**
 * The request the executor sends for an in-place resize: a JSON Patch (RFC 6902) on the pod's
 * `resize` subresource (1.33+; on 1.27-1.32 with the feature gate, on the pod itself), with the
 * cpu and memory requests and limits of the containers that change, as the upstream VPA updater
 * sends it; pod-level values (a change of kind `pod`, 1.36+) are written under `/spec/resources`
 * the same way. For each changed container it first `test`s the container's name at its index, so a
 * pod whose containers changed since it was read fails with 422 instead of resizing the wrong
 * container; then `add`s each value (`add` replaces an existing member and creates a missing one;
 * a missing `resources`, `requests` or `limits` object is added whole). Values are formatted as
 * Kubernetes quantities (`250m`, `2`, `768Mi`). Nothing is ever removed.
 *
 * Send it with `patchNamespacedPodResize` and an explicit content type ({@link JSON_PATCH_CONTENT_TYPE},
 * kube-apis.ts takes it as the call's second argument): a default content type must not be relied
 * on, and a JSON merge patch would replace the whole containers list.
 */
import type { V1Container, V1Pod, V1ResourceRequirements } from '@kubernetes/client-node';
import { formatAmount } from '../policy/resource-requirements.ts';
import { RESOURCE_NAMES } from '../model/types.ts';
import type { ContainerChange } from './decision.ts';
import type { ServerCapabilities } from './server-capabilities.ts';

/** A change that cannot be written as a patch of this pod (the pod changed since it was planned). */
export class ResizePatchError extends Error {
  override readonly name = 'ResizePatchError';
}

/** One JSON Patch operation used here. */
export type JsonPatchOperation = { op: 'test' | 'add'; path: string; value: unknown };

export const JSON_PATCH_CONTENT_TYPE = 'application/json-patch+json';

/** Everything the executor needs to send a resize. */
export interface ResizeRequest {
  namespace: string;
  name: string;
  /** `resize` on 1.33+, undefined (patch the pod) on older servers. */
  subresource: 'resize' | undefined;
  contentType: typeof JSON_PATCH_CONTENT_TYPE;
  patch: JsonPatchOperation[];
}

/** A change's target values as quantity strings: `{requests: {cpu: '250m'}, limits: {memory: '1Gi'}}`. */
export function formattedValues(change: ContainerChange): { requests: Record<string, string>; limits: Record<string, string> } {
  const requests: Record<string, string> = {};
  const limits: Record<string, string> = {};
  for (const r of RESOURCE_NAMES) {
    const request = change.to.requests[r];
    const limit = change.to.limits[r];
    if (request !== undefined) requests[r] = formatAmount(r, request);
    if (limit !== undefined) limits[r] = formatAmount(r, limit);
  }
  return { requests, limits };
}

/** The JSON Patch operations for the changes. Throws ResizePatchError if a changed container is not in the pod. */
export function resizeJsonPatch(pod: V1Pod, changes: readonly ContainerChange[]): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  for (const change of changes) {
    if (change.kind === 'pod') {
      ops.push(...valueOps('/spec', pod.spec?.resources, change));
      continue;
    }
    const list = change.kind === 'sidecar' ? 'initContainers' : 'containers';
    const containers: V1Container[] = pod.spec?.[list] ?? [];
    const index = containers.findIndex((c) => c.name === change.containerName);
    if (index < 0) throw new ResizePatchError(`container ${change.containerName} is not in ${list} of pod ${pod.metadata?.namespace}/${pod.metadata?.name}`);
    const base = `/spec/${list}/${index}`;
    ops.push({ op: 'test', path: `${base}/name`, value: change.containerName });
    ops.push(...valueOps(base, containers[index]!.resources, change));
  }
  return ops;
}

/** The `add` operations writing a change's values under `base` (a container, or `/spec` for pod-level values). */
function valueOps(base: string, existing: V1ResourceRequirements | undefined, change: ContainerChange): JsonPatchOperation[] {
  const values = formattedValues(change);
  if (!existing) {
    const resources: Record<string, Record<string, string>> = {};
    if (Object.keys(values.requests).length > 0) resources.requests = values.requests;
    if (Object.keys(values.limits).length > 0) resources.limits = values.limits;
    return [{ op: 'add', path: `${base}/resources`, value: resources }];
  }
  const ops: JsonPatchOperation[] = [];
  for (const kind of ['requests', 'limits'] as const) {
    const wanted = Object.entries(values[kind]).filter(([r]) => change.resources.includes(r as never));
    if (wanted.length === 0) continue;
    if (!existing[kind]) {
      ops.push({ op: 'add', path: `${base}/resources/${kind}`, value: Object.fromEntries(wanted) });
      continue;
    }
    for (const [r, q] of wanted) ops.push({ op: 'add', path: `${base}/resources/${kind}/${r}`, value: q });
  }
  return ops;
}

/** The resize request for a pod and its changes, for the server's capabilities. */
export function resizeRequest(pod: V1Pod, changes: readonly ContainerChange[], capabilities: ServerCapabilities): ResizeRequest {
  return {
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
    subresource: capabilities.resizeSubresource ? 'resize' : undefined,
    contentType: JSON_PATCH_CONTENT_TYPE,
    patch: resizeJsonPatch(pod, changes),
  };
}
