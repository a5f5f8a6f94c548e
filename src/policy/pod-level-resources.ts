/**
 * Pod-level resources (`spec.resources`, KEP-2837; resizable in place from Kubernetes 1.36,
 * KEP-5419): the pod's cgroup gets the pod-level values and its containers share them. Tailor
 * sizes them from the per-container recommendations:
 * - the pod-level recommendation is the sum, per resource, of each container's recommendation
 *   (regular containers and sidecars) kept within that container's minAllowed/maxAllowed; a
 *   container the VPA does not control for that resource (mode Off, not in controlledResources, no
 *   recommendation) counts with its own request; without one its share is unknown and the pod is
 *   left alone. Ordinary init containers do not count: they have finished before the others run.
 *   Example: app target cpu 300m (maxAllowed 250m) + sidecar 40m = pod-level cpu 290m.
 * - the pod-level values are then planned as one container's are (`planContainer`): limits keep
 *   their ratio to the request, `controlledValues` of the `"*"` policy, a Guaranteed pod stays
 *   Guaranteed, a LimitRange of type Pod bounds the totals, memory limit floors hold;
 * - and the API server's rules for pod-level values hold: the pod's request is at least the sum of
 *   its containers' own requests ("must be greater than or equal to aggregate container requests")
 *   and its limit at least each container's own limit ("must be less than or equal to pod limits").
 *   Containers' own values are never changed in such a pod.
 * In plans and changes the pod-level values appear as one more entry of kind `pod` named
 * {@link POD_LEVEL} (not a valid container name). Pure: no I/O, never throws but QuantityError.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { PodResourcePolicy } from '../api/vpa.ts';
import type { NumericContainerRecommendation, ResourceAmounts } from '../api/vpa-quantities.ts';
import { RESOURCE_NAMES, type ResourceName } from 'kube-basics/resources';
import type { Adjustment } from './adjustments.ts';
import { describeAmount } from './adjustments.ts';
import { planContainer, type MemoryLimitRules } from './container-plan.ts';
import { containerPolicyFor } from './container-policy.ts';
import { readResourceValues, type ContainerResourceValues } from './container-values.ts';
import type { ResourceBounds } from './limit-range.ts';
import { qosClassOf, type QosClass } from './qos.ts';
import { REQUEST_STEP } from './rounding.ts';

/** The name under which pod-level values appear among a plan's containers (never a container's name). */
export const POD_LEVEL = '(pod)';

/** True if the pod sets pod-level requests or limits. */
export function hasPodLevelResources(pod: V1Pod): boolean {
  const resources = pod.spec?.resources;
  return Object.keys(resources?.requests ?? {}).length + Object.keys(resources?.limits ?? {}).length > 0;
}

/** The pod's containers that share the pod-level values: regular ones and sidecars. */
export function sharingContainers(pod: V1Pod): V1Container[] {
  return [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
}

/** The resources the pod-level values set (a request or a limit). */
function podLevelResourceNames(pod: V1Pod): ResourceName[] {
  const resources = pod.spec?.resources;
  return RESOURCE_NAMES.filter((r) => resources?.requests?.[r] !== undefined || resources?.limits?.[r] !== undefined);
}

/** The pod-level recommendation, or why there is none. */
export type PodLevelRecommendation = { ok: true; recommendation: NumericContainerRecommendation } | { ok: false; message: string };

/**
 * Sums the containers' recommendations (target, lowerBound, upperBound, each kept within the
 * container's minAllowed/maxAllowed) into one named {@link POD_LEVEL}, for the resources the pod
 * sets at pod level. Throws QuantityError on a malformed quantity in the pod or the policy.
 */
export function podLevelRecommendation(
  pod: V1Pod,
  recommendations: readonly Pick<NumericContainerRecommendation, 'containerName' | 'target' | 'lowerBound' | 'upperBound'>[],
  resourcePolicy: PodResourcePolicy | undefined,
): PodLevelRecommendation {
  const byName = new Map(recommendations.map((r) => [r.containerName, r]));
  const target: ResourceAmounts = {};
  const lowerBound: ResourceAmounts = {};
  const upperBound: ResourceAmounts = {};
  for (const r of podLevelResourceNames(pod)) {
    let sums = { target: 0, lowerBound: 0, upperBound: 0 };
    for (const c of sharingContainers(pod)) {
      const policy = containerPolicyFor(resourcePolicy, c.name);
      const rec = byName.get(c.name);
      const controlled = policy.mode !== 'Off' && policy.controlledResources.includes(r) && rec?.target[r] !== undefined;
      if (!controlled) {
        const own = readResourceValues(c.resources).requests[r];
        if (own === undefined)
          return { ok: false, message: `${c.name} has no ${r} recommendation and no ${r} request of its own: its share of the pod-level ${r} is unknown` };
        sums = { target: sums.target + own, lowerBound: sums.lowerBound + own, upperBound: sums.upperBound + own };
        continue;
      }
      const keep = (v: number) => Math.min(Math.max(v, policy.minAllowed[r] ?? 0), policy.maxAllowed[r] ?? Number.POSITIVE_INFINITY);
      const t = rec!.target[r]!;
      sums = {
        target: sums.target + keep(t),
        lowerBound: sums.lowerBound + keep(rec!.lowerBound?.[r] ?? t),
        upperBound: sums.upperBound + keep(rec!.upperBound?.[r] ?? t),
      };
    }
    target[r] = sums.target;
    lowerBound[r] = sums.lowerBound;
    upperBound[r] = sums.upperBound;
  }
  return { ok: true, recommendation: { containerName: POD_LEVEL, target, lowerBound, upperBound } };
}

/** What the pod-level values must allow for the containers' own values (the API server's rules). */
function containerFloors(pod: V1Pod): { requests: ResourceAmounts; limits: ResourceAmounts } {
  const requests: ResourceAmounts = {};
  const limits: ResourceAmounts = {};
  const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  for (const r of RESOURCE_NAMES) {
    const own = (c: V1Container) => readResourceValues(c.resources);
    const shared = sharingContainers(pod).reduce((sum, c) => sum + (own(c).requests[r] ?? 0), 0);
    const init = Math.max(0, ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy !== 'Always').map((c) => own(c).requests[r] ?? 0));
    requests[r] = Math.max(shared, init);
    limits[r] = Math.max(0, ...all.map((c) => own(c).limits[r] ?? 0));
  }
  return { requests, limits };
}

/**
 * The API server's rules that pod-level values `values` would break for this pod's containers, as
 * sentences (empty when none). Example: a container's own cpu limit 600m above a pod limit of 500m.
 * Throws QuantityError.
 */
export function podLevelViolations(pod: V1Pod, values: ContainerResourceValues): string[] {
  const floors = containerFloors(pod);
  const out: string[] = [];
  for (const r of RESOURCE_NAMES) {
    const request = values.requests[r];
    const limit = values.limits[r];
    if (request !== undefined && request < floors.requests[r]!)
      out.push(`pod-level ${r} request ${describeAmount(r, request)} below the containers' own requests (${describeAmount(r, floors.requests[r]!)})`);
    if (limit !== undefined && limit < floors.limits[r]!)
      out.push(`pod-level ${r} limit ${describeAmount(r, limit)} below a container's own limit (${describeAmount(r, floors.limits[r]!)})`);
  }
  return out;
}

/** What the pod-level plan is computed from. */
export interface PodLevelPlanInput {
  pod: V1Pod;
  /** The pod-level target ({@link podLevelRecommendation}'s, possibly raised by the updater's OOM rule). */
  target: ResourceAmounts;
  resourcePolicy?: PodResourcePolicy;
  qosClass: QosClass;
  /** LimitRange bounds of type Pod. */
  podLimitRange: Readonly<Record<ResourceName, ResourceBounds>>;
  memoryLimitRules?: MemoryLimitRules;
}

/** The planned pod-level values and why they differ from the target. */
export interface PodLevelPlan {
  current: ContainerResourceValues;
  proposed: ContainerResourceValues;
  reasons: Adjustment[];
}

/** Plans the pod-level values. Throws QuantityError on a malformed quantity. */
export function planPodLevel(input: PodLevelPlanInput): PodLevelPlan {
  const { pod } = input;
  const current = readResourceValues(pod.spec?.resources);
  const wildcard = containerPolicyFor(input.resourcePolicy, POD_LEVEL);
  const planned = planContainer({
    containerName: POD_LEVEL,
    current,
    target: input.target,
    policy: {
      source: undefined,
      mode: 'Auto',
      controlledResources: RESOURCE_NAMES,
      controlledValues: wildcard.controlledValues,
      minAllowed: {},
      maxAllowed: {},
    },
    limitRange: input.podLimitRange,
    guaranteed: input.qosClass === 'Guaranteed',
    memoryLimitRules: input.memoryLimitRules,
  });
  const reasons = [...planned.reasons];
  const proposed: ContainerResourceValues = { requests: { ...planned.proposed.requests }, limits: { ...planned.proposed.limits } };
  const floors = containerFloors(pod);
  for (const r of RESOURCE_NAMES) {
    const request = proposed.requests[r];
    if (request !== undefined && request < floors.requests[r]!) {
      proposed.requests[r] = floors.requests[r]!;
      reasons.push({
        code: 'RaisedToContainerValues',
        container: POD_LEVEL,
        resource: r,
        message: `${r}: request raised to ${describeAmount(r, floors.requests[r]!)}, the sum of the containers' own requests (the API server refuses less)`,
      });
    }
    const limit = proposed.limits[r];
    const floor = Math.max(floors.limits[r]!, proposed.requests[r] ?? 0);
    if (limit !== undefined && limit < floor) {
      proposed.limits[r] = floor;
      reasons.push({
        code: 'RaisedToContainerValues',
        container: POD_LEVEL,
        resource: r,
        message: `${r}: limit raised to ${describeAmount(r, floor)}, the largest of the containers' own limits and the request (the API server refuses less)`,
      });
    }
  }
  return keepPodLevelQos(input.qosClass, current, proposed, reasons);
}

/**
 * A Burstable pod must not become Guaranteed (nor the reverse; planContainer keeps a Guaranteed one
 * equal): where every pod-level request would equal its limit, one changed limit goes up a step
 * (1m / 1 MiB); if the class would still change, the pod-level values stay as they are.
 */
function keepPodLevelQos(qosClass: QosClass, current: ContainerResourceValues, proposed: ContainerResourceValues, reasons: Adjustment[]): PodLevelPlan {
  if (qosClassOf([proposed]) === qosClass) return { current, proposed, reasons };
  const stepped: ContainerResourceValues = { requests: { ...proposed.requests }, limits: { ...proposed.limits } };
  const changed =
    RESOURCE_NAMES.find((r) => stepped.limits[r] !== undefined && stepped.limits[r] !== current.limits[r]) ??
    RESOURCE_NAMES.find((r) => stepped.limits[r] !== undefined);
  if (qosClass === 'Burstable' && changed) {
    stepped.limits[changed] = stepped.limits[changed]! + REQUEST_STEP[changed];
    if (qosClassOf([stepped]) === qosClass)
      return {
        current,
        proposed: stepped,
        reasons: [
          ...reasons,
          {
            code: 'BurstableKept',
            container: POD_LEVEL,
            resource: changed,
            message: `${changed}: limit one step above the request so the pod stays Burstable`,
          },
        ],
      };
  }
  return {
    current,
    proposed: current,
    reasons: [
      ...reasons,
      { code: 'QosWouldChange', container: POD_LEVEL, message: `the pod-level values would change the QoS class from ${qosClass}; left unchanged` },
    ],
  };
}
