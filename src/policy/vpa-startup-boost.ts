/**
 * The start-up CPU boost a VPA gives each container (policy/startup-boost.ts applies it):
 * - upstream 1.8's fields first: the container's policy's `startupBoost` (its own, else the `"*"`
 *   one), else `spec.startupBoost`; `type: Factor, factor: 2` -> twice the request,
 *   `type: Quantity, quantity: 500m` -> the request + 500m (upstream adds it), ended
 *   `durationSeconds` after the pod turns Ready (`ready+15s`), the duration read as upstream's
 *   updater reads it (`upstreamBoostDurationSeconds`: a container's own boost without one takes
 *   `spec.startupBoost`'s; none anywhere: at Ready);
 * - else Tailor's annotation `tailor.dev/startup-cpu-boost` (a bad annotation: none; the updater
 *   reports it);
 * - none for a container whose policy mode is `Off` (as upstream: the VPA leaves it alone).
 * With `controlledValues: RequestsOnly` the boost leaves the limit alone (`requestsOnly`).
 * The VPA is a validated one (`validateVpa`). Pure.
 */
import { parseCpu } from 'kube-basics/quantity';
import type { GenericStartupBoost, VerticalPodAutoscaler } from '../api/vpa.ts';
import { readWorkloadAnnotations } from './annotations/workload-annotations.ts';
import type { StartupBoost } from './annotations/boost-annotations.ts';
import { containerPolicyOf } from './container-policy.ts';
import type { BoostEnd } from './startup-boost.ts';

/** A container's boost, and whether its limit must stay as it is. */
export interface ContainerStartupBoost extends StartupBoost {
  requestsOnly: boolean;
}

/**
 * How long after Ready `containerName`'s boost lasts, as upstream's updater computes it (v1.8.1
 * `getContainerCPUStartupBoostDuration`): its container policy's `startupBoost.cpu.durationSeconds`,
 * else `spec.startupBoost.cpu.durationSeconds`, else 0. The duration alone falls back: a container
 * policy `{startupBoost: {cpu: {type: Factor, factor: 3}}}` beside `spec.startupBoost` with
 * `durationSeconds: 15` boosts 3x for 15 s.
 */
export function upstreamBoostDurationSeconds(vpa: Pick<VerticalPodAutoscaler, 'spec'>, containerName: string): number {
  const own = containerPolicyOf(vpa.spec.resourcePolicy, containerName)?.startupBoost?.cpu?.durationSeconds;
  return own ?? vpa.spec.startupBoost?.cpu?.durationSeconds ?? 0;
}

/** Upstream's `startupBoost.cpu` as Tailor's boost, for `containerName`. */
function fromUpstream(vpa: Pick<VerticalPodAutoscaler, 'spec'>, containerName: string, cpu: GenericStartupBoost): StartupBoost {
  const until: BoostEnd = { kind: 'ready', afterMs: upstreamBoostDurationSeconds(vpa, containerName) * 1000 };
  if (cpu.type === 'Factor') return { amount: { kind: 'factor', factor: cpu.factor ?? 1 }, until };
  return { amount: { kind: 'add', millicores: cpu.quantity === undefined ? 0 : parseCpu(cpu.quantity) }, until };
}

/** The boost the VPA asks for `containerName` before the mode and controlledValues rules. */
function askedFor(vpa: Pick<VerticalPodAutoscaler, 'metadata' | 'spec'>, containerName: string): StartupBoost | undefined {
  const policy = containerPolicyOf(vpa.spec.resourcePolicy, containerName);
  const upstream = policy?.startupBoost?.cpu ?? vpa.spec.startupBoost?.cpu;
  if (upstream) return fromUpstream(vpa, containerName, upstream);
  const { settings, problems } = readWorkloadAnnotations(vpa.metadata.annotations);
  return problems.length > 0 ? undefined : settings.startupBoost;
}

/** The boost of `containerName`, or undefined when it gets none. */
export function startupBoostFor(vpa: Pick<VerticalPodAutoscaler, 'metadata' | 'spec'>, containerName: string): ContainerStartupBoost | undefined {
  const policy = containerPolicyOf(vpa.spec.resourcePolicy, containerName);
  if (policy?.mode === 'Off') return undefined;
  const boost = askedFor(vpa, containerName);
  return boost ? { ...boost, requestsOnly: policy?.controlledValues === 'RequestsOnly' } : undefined;
}

/** Every end a boost of this VPA may have (for the history of pods already gone): none when it asks for no boost. */
export function startupBoostEnds(vpa: Pick<VerticalPodAutoscaler, 'metadata' | 'spec'>): BoostEnd[] {
  const names = new Set<string>(['*', ...(vpa.spec.resourcePolicy?.containerPolicies ?? []).map((p) => p.containerName)]);
  const ends: BoostEnd[] = [];
  for (const name of names) {
    const boost = startupBoostFor(vpa, name);
    if (boost) ends.push(boost.until);
  }
  return ends;
}
