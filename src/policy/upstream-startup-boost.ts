/**
 * Upstream 1.8's start-up CPU boost as it marks a pod (`CPUStartupBoost`): upstream's admission
 * controller writes, for each container it boosts, the pod annotation `vpaCpuStartupBoost/<name>`
 * whose value is the container's resources before the boost (upstream's `OriginalResources`, JSON):
 * `vpaCpuStartupBoost/app: {"requests":{"cpu":"200m","memory":"100Mi"},"limits":{}}`.
 * The container is boosted while its pod carries the annotation; the boost ends once the pod is
 * Ready and the container's duration has passed since the Ready condition's lastTransitionTime
 * (`upstreamBoostEnd`, the duration as upstream's updater reads the VPA). Tailor honours it for
 * pods boosted by upstream before a migration; its own webhook writes `tailor.dev/startup-cpu-boost-record`
 * (startup-boost.ts) instead. Pure.
 */
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import { RESOURCE_NAMES } from 'kube-basics/resources';
import { QuantityError } from 'kube-basics/quantity';
import { parseAmount, type ContainerResourceValues } from './container-values.ts';
import type { BoostEnd } from './startup-boost.ts';
import { upstreamBoostDurationSeconds } from './vpa-startup-boost.ts';

/** The prefix of upstream's boost annotation; the container's name follows it. */
export const UPSTREAM_BOOST_ANNOTATION_PREFIX = 'vpaCpuStartupBoost/';

/** `vpaCpuStartupBoost/app` for `app`. */
export function upstreamBoostAnnotation(containerName: string): string {
  return `${UPSTREAM_BOOST_ANNOTATION_PREFIX}${containerName}`;
}

const SHAPE = `is not upstream's original resources ({"requests":{...},"limits":{...}})`;

function isList(value: unknown): value is Record<string, unknown> | null | undefined {
  return value === undefined || value === null || (typeof value === 'object' && !Array.isArray(value));
}

/** One annotation's value as cpu and memory (the API server's defaulting: no request, the limit), or why not. */
function readOriginal(key: string, raw: string): ContainerResourceValues | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { error: `${key} is not JSON` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: `${key} ${SHAPE}` };
  const { requests, limits } = parsed as { requests?: unknown; limits?: unknown };
  if (!isList(requests) || !isList(limits)) return { error: `${key} ${SHAPE}` };
  const out: ContainerResourceValues = { requests: {}, limits: {} };
  for (const [field, list] of [
    ['requests', requests],
    ['limits', limits],
  ] as const) {
    for (const name of RESOURCE_NAMES) {
      const quantity = list?.[name];
      if (quantity === undefined) continue;
      try {
        out[field][name] = parseAmount(name, quantity as string);
      } catch (err) {
        if (!(err instanceof QuantityError)) throw err;
        return { error: `${key}: ${field}.${name}: ${err.message}` };
      }
    }
  }
  for (const name of RESOURCE_NAMES) if (out.requests[name] === undefined && out.limits[name] !== undefined) out.requests[name] = out.limits[name];
  return out;
}

/**
 * The containers upstream boosted, each with its values before the boost; undefined when the pod
 * has no such annotation; the first one that cannot be read, and why.
 * `{"vpaCpuStartupBoost/app": '{"requests":{"cpu":"200m"},"limits":{}}'}` -> `app: {requests: {cpu: 200}, limits: {}}`.
 */
export function readUpstreamBoosts(
  annotations: Readonly<Record<string, string>> | undefined,
): ReadonlyMap<string, ContainerResourceValues> | { error: string } | undefined {
  const boosts = new Map<string, ContainerResourceValues>();
  for (const [key, raw] of Object.entries(annotations ?? {})) {
    if (!key.startsWith(UPSTREAM_BOOST_ANNOTATION_PREFIX)) continue;
    const original = readOriginal(key, raw);
    if ('error' in original) return original;
    boosts.set(key.slice(UPSTREAM_BOOST_ANNOTATION_PREFIX.length), original);
  }
  return boosts.size === 0 ? undefined : boosts;
}

/** When `containerName`'s boost ends: its duration (`upstreamBoostDurationSeconds`) after Ready; `durationSeconds: 1` -> `ready+1s`. */
export function upstreamBoostEnd(vpa: Pick<VerticalPodAutoscaler, 'spec'>, containerName: string): BoostEnd {
  return { kind: 'ready', afterMs: upstreamBoostDurationSeconds(vpa, containerName) * 1000 };
}

/**
 * True when the VPA asks for upstream's boost at all (`spec.startupBoost`, or a container policy's):
 * upstream's updater then holds a pod carrying the annotation out of its usual processing until
 * the boost ends; otherwise only the return at Ready is its (v1.8.1 `HasStartupBoost`).
 */
export function vpaAsksForStartupBoost(vpa: Pick<VerticalPodAutoscaler, 'spec'>): boolean {
  return vpa.spec.startupBoost !== undefined || (vpa.spec.resourcePolicy?.containerPolicies ?? []).some((p) => p.startupBoost !== undefined);
}
