/**
 * What the API server can do for in-place resizes, from its version (reference:
 * kubernetes-resize.md):
 * - 1.36, 1.37: as 1.35, except that a resize beyond the node's allocatable is refused by the API
 *   server at admission (403, cause `NodeCapacity`) instead of marked Infeasible by the kubelet;
 *   the executor handles that answer as Infeasible (resize-refusal.ts); and pod-level resources
 *   (`spec.resources`) are resized in place too (KEP-5419, beta, on by default);
 * - 1.35: `pods/resize` GA; lowering a memory limit is allowed (the kubelet refuses, with
 *   `PodResizeInProgress` reason `Error`, if usage is above the new limit);
 * - 1.34: as 1.35 (beta, on by default);
 * - 1.33: `pods/resize` beta, on by default; conditions instead of `status.resize`; a memory limit
 *   may only be lowered when the container's memory resizePolicy is `RestartContainer`;
 * - 1.27-1.32: alpha behind the `InPlacePodVerticalScaling` feature gate, resources patched on the
 *   pod itself, `status.resize`; the memory-limit rule is taken as in 1.33 (the safe reading);
 * - older: no in-place resize.
 */

/** A server version, e.g. `{major: 1, minor: 33}`. */
export interface ServerVersion {
  major: number;
  minor: number;
}

/** What the planner may ask of the server. */
export interface ServerCapabilities {
  version: ServerVersion;
  /** In-place resize is possible at all. */
  inPlaceResize: boolean;
  /** Resizes go through the `resize` subresource (1.33+); before, through a patch of the pod. */
  resizeSubresource: boolean;
  /** The server refuses to lower a memory limit unless the container restarts for memory. */
  memoryLimitDecreaseNeedsRestart: boolean;
  /** Pod-level resources (`spec.resources`) can be resized in place (1.36+). */
  podLevelResize: boolean;
}

/**
 * Capabilities of a server version. `inPlaceFeatureGate` says whether the alpha gate is on for
 * 1.27-1.32 (default false, its default there). Example: 1.33 -> in place through `resize`,
 * memory limit decreases only with RestartContainer; 1.34 -> the same without that restriction.
 */
export function serverCapabilities(version: ServerVersion, inPlaceFeatureGate = false): ServerCapabilities {
  const at = (minor: number) => version.major > 1 || (version.major === 1 && version.minor >= minor);
  const alpha = at(27) && !at(33);
  return {
    version,
    inPlaceResize: at(33) || (alpha && inPlaceFeatureGate),
    resizeSubresource: at(33),
    memoryLimitDecreaseNeedsRestart: !at(34),
    podLevelResize: at(36),
  };
}

/**
 * The newest version whose resize rules are known (kubernetes-resize.md); a newer one may change
 * them, so a dry run for it (`tailor plan --server-version`) is refused rather than guessed.
 */
export const NEWEST_KNOWN_VERSION: ServerVersion = { major: 1, minor: 37 };

/** Whether the rules of `version` are known: 1.x up to {@link NEWEST_KNOWN_VERSION}. */
export function isKnownServerVersion(version: ServerVersion): boolean {
  return version.major === NEWEST_KNOWN_VERSION.major && version.minor <= NEWEST_KNOWN_VERSION.minor;
}

/** Parses `version.Info` fields (`major: "1"`, `minor: "33+"`, as GKE and EKS write it). */
export function parseServerVersion(info: { major: string; minor: string }): ServerVersion | undefined {
  const major = Number.parseInt(info.major, 10);
  const minor = Number.parseInt(info.minor, 10);
  return Number.isFinite(major) && Number.isFinite(minor) ? { major, minor } : undefined;
}

/**
 * The one line the updater logs at start when the server cannot resize in place: what it does
 * instead. Example (1.30, gate off): "the API server is 1.30: no in-place resize (pods/resize
 * comes with 1.33; 1.27-1.32 need the InPlacePodVerticalScaling feature gate and
 * --in-place-feature-gate): pods in InPlaceOrRecreate, Recreate and Auto mode are evicted instead
 * (their controller recreates them, with the recommendation where the admission webhook runs);
 * InPlace pods are left as they are". The recommender is not concerned.
 */
export function inPlaceUnavailableMessage(version: ServerVersion): string {
  return (
    `the API server is ${version.major}.${version.minor}: no in-place resize (pods/resize comes with 1.33; 1.27-1.32 need the ` +
    'InPlacePodVerticalScaling feature gate and --in-place-feature-gate): pods in InPlaceOrRecreate, Recreate and Auto mode are evicted ' +
    'instead (their controller recreates them, with the recommendation where the admission webhook runs); InPlace pods are left as they are'
  );
}
