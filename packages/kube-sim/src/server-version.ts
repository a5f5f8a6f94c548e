/**
 * The Kubernetes versions kube-sim can imitate, and the resize behaviours that differ between them
 * (see `/work/shared/reference/kubernetes-resize.md`).
 */

/** `1.32`: alpha resize (resources patched on the pod, legacy `status.resize`); `1.33`: beta
 * `pods/resize` with conditions, memory-limit decreases forbidden without RestartContainer;
 * `1.34`/`1.35`: memory-limit decreases allowed (the kubelet checks usage); 1.35 is GA;
 * `1.36`/`1.37`: as 1.35, and a resize whose pod requests exceed the node's allocatable is refused
 * by the API server (admission plugin PodResizeValidator, 403 with cause `NodeCapacity`) instead of
 * being marked Infeasible by the kubelet. */
export type ServerVersion = '1.32' | '1.33' | '1.34' | '1.35' | '1.36' | '1.37';

export const SERVER_VERSIONS: readonly ServerVersion[] = ['1.32', '1.33', '1.34', '1.35', '1.36', '1.37'];

/** The version kube-sim follows unless told otherwise (also `tailor demo`'s and `tailor plan`'s default). */
export const DEFAULT_SERVER_VERSION: ServerVersion = '1.35';

/** Parses a `--server-version` value; throws with the accepted values listed. */
export function parseServerVersion(input: string): ServerVersion {
  const trimmed = input.trim().replace(/^v/, '');
  if ((SERVER_VERSIONS as readonly string[]).includes(trimmed)) return trimmed as ServerVersion;
  throw new Error(`unsupported server version ${JSON.stringify(input)}: expected one of ${SERVER_VERSIONS.join(', ')}`);
}

/** The minor version number (1.33 -> 33). */
export function minorOf(version: ServerVersion): number {
  return Number(version.split('.')[1]);
}

/** Whether `PATCH pods/{name}/resize` exists (1.33+); before, resources are patched on the pod itself. */
export function hasResizeSubresource(version: ServerVersion): boolean {
  return minorOf(version) >= 33;
}

/** Whether the kubelet reports resizes with PodResizePending/PodResizeInProgress conditions (1.33+)
 * rather than the legacy `status.resize` string. */
export function usesResizeConditions(version: ServerVersion): boolean {
  return minorOf(version) >= 33;
}

/** Whether the API server forbids memory-limit decreases unless the memory resizePolicy is
 * RestartContainer (only 1.33; 1.34+ lets the kubelet decide from usage). */
export function forbidsMemoryLimitDecrease(version: ServerVersion): boolean {
  return minorOf(version) === 33;
}

/** Whether the kubelet checks memory usage before lowering a limit (1.34+): usage above the new
 * limit leaves the resize InProgress with reason Error instead of OOM-killing. */
export function kubeletChecksMemoryDecrease(version: ServerVersion): boolean {
  return minorOf(version) >= 34;
}

/** Whether the kubelet records ResizeStarted / ResizeCompleted events (1.34+; older kubelets record none). */
export function recordsResizeEvents(version: ServerVersion): boolean {
  return minorOf(version) >= 34;
}

/** Whether the API server refuses a resize beyond the node's allocatable at admission (1.36+,
 * kubernetes/kubernetes#136043); before, the kubelet marks it `PodResizePending` reason Infeasible. */
export function refusesResizeBeyondAllocatable(version: ServerVersion): boolean {
  return minorOf(version) >= 36;
}

/** Whether pods with pod-level resources (`spec.resources`) can be resized in place (1.36+, KEP-5419
 * InPlacePodLevelResourcesVerticalScaling beta, on by default; alpha and off in 1.35): the resize
 * takes `spec.resources` from the request, and the kubelet reports the pod's own
 * `status.allocatedResources` and `status.resources`. Before, any resize of such a pod is refused
 * and a pod-level change in a resize request is dropped. */
export function resizesPodLevelResources(version: ServerVersion): boolean {
  return minorOf(version) >= 36;
}

/** Whether a resize defaults the pod-level resources as pod creation does and keeps them when the
 * request drops them (1.37+, PodLevelResourcesFixDefaulting: a resize that removes `spec.resources`
 * is a no-op, 200 with the generation unchanged, where 1.36 refuses it). */
export function defaultsPodLevelResourcesOnResize(version: ServerVersion): boolean {
  return minorOf(version) >= 37;
}

/** Whether the kubelet's pod-level `status.resources.requests.memory` is the allocated request (1.37+,
 * updated as soon as a resize is allocated) rather than the first one reported, kept while the pod
 * runs (1.36; both seen on the real v1.36.3 and v1.37.2). */
export function reportsAllocatedPodMemoryRequest(version: ServerVersion): boolean {
  return minorOf(version) >= 37;
}

/** The gitVersion a `/version` answer would carry for this server version. */
export function gitVersionOf(version: ServerVersion): string {
  return `v${version}.0`;
}
