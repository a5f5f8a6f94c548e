/**
 * The pod-wide QoS rule applied to planned values (the resize API refuses any class change).
 * Guaranteed pods keep request == limit by construction (container-plan.ts). A Burstable pod whose
 * planned values would make every request equal its limit is kept Burstable with the smallest
 * change, preferring a resource whose request was below its limit before:
 * 1. under RequestsAndLimits, raise that limit by one step (1m / 1 MiB): request 500m, limit 500m
 *    becomes limit 501m, and the next plan scales 501m x 500m / 500m = 501m again (a fixed point);
 * 2. otherwise lower the request by one step (499m), e.g. under RequestsOnly where the limit is fixed;
 * 3. where the bounds (minAllowed, LimitRange, pod totals) allow neither, keep that resource as it was.
 * If the class would still change, every container is left as it was.
 */
import { RESOURCE_NAMES, type ResourceName } from 'kube-basics/resources';
import { describeAmount, type Adjustment } from './adjustments.ts';
import type { EffectiveContainerPolicy } from './container-policy.ts';
import type { ContainerResourceValues } from './container-values.ts';
import type { LimitRangeConstraints } from './limit-range.ts';
import { podTotalsFit } from './pod-limit-range.ts';
import { qosClassOf, type QosClass } from './qos.ts';
import { MINIMUM_REQUEST, REQUEST_STEP, exceedsRatio } from './rounding.ts';

/** A container as the guard sees it; `proposed` and `reasons` are updated in place. */
export interface GuardedContainer {
  containerName: string;
  current: ContainerResourceValues;
  proposed: ContainerResourceValues;
  policy?: EffectiveContainerPolicy;
  reasons: Adjustment[];
}

/** Keeps the planned values in `qosClass`; returns pod-level adjustments (empty if none needed). */
export function keepQosClass(
  qosClass: QosClass,
  containers: GuardedContainer[],
  others: readonly ContainerResourceValues[],
  limitRange: LimitRangeConstraints,
): Adjustment[] {
  const classNow = () => qosClassOf([...containers.map((c) => c.proposed), ...others]);
  if (classNow() === qosClass) return [];
  if (qosClass === 'Burstable') {
    for (const [c, r] of candidates(containers)) {
      if (classNow() !== 'Guaranteed') break;
      breakEquality(c, r, containers, others, limitRange);
    }
  }
  const after = classNow();
  if (after === qosClass) return [];
  for (const c of containers) c.proposed = c.current;
  return [{ code: 'QosWouldChange', message: `the new resources would change the pod's QoS class from ${qosClass} to ${after}; left unchanged` }];
}

/** Changed resources whose planned request equals the limit; those unequal before come first. */
function candidates(containers: GuardedContainer[]): [GuardedContainer, ResourceName][] {
  const out: [GuardedContainer, ResourceName, boolean][] = [];
  for (const c of containers) {
    for (const r of RESOURCE_NAMES) {
      const request = c.proposed.requests[r];
      const limit = c.proposed.limits[r];
      const changed = request !== c.current.requests[r] || limit !== c.current.limits[r];
      if (!changed || request === undefined || request !== limit) continue;
      out.push([c, r, c.current.requests[r] === c.current.limits[r]]);
    }
  }
  return out.sort((a, b) => Number(a[2]) - Number(b[2])).map(([c, r]) => [c, r]);
}

function breakEquality(
  c: GuardedContainer,
  r: ResourceName,
  containers: GuardedContainer[],
  others: readonly ContainerResourceValues[],
  limitRange: LimitRangeConstraints,
): void {
  const value = c.proposed.requests[r]!;
  const bounds = limitRange.container[r];
  const podFits = (candidate: ContainerResourceValues) =>
    podTotalsFit(
      containers.map((x) => (x === c ? candidate : x.proposed)),
      others,
      r,
      limitRange.pod[r],
    );
  const note = (message: string) => c.reasons.push({ code: 'BurstableKept', container: c.containerName, resource: r, message: `${r}: ${message}` });

  if (c.policy?.controlledValues !== 'RequestsOnly') {
    const raised = value + REQUEST_STEP[r];
    const candidate = { requests: c.proposed.requests, limits: { ...c.proposed.limits, [r]: raised } };
    const ratioOk = bounds.maxRatioMilli === undefined || !exceedsRatio(raised, value, bounds.maxRatioMilli);
    if ((bounds.max === undefined || raised <= bounds.max) && ratioOk && podFits(candidate)) {
      c.proposed = candidate;
      note(`limit raised to ${describeAmount(r, raised)}, one step above the request, so the Burstable pod does not become Guaranteed`);
      return;
    }
  }
  const lowered = value - REQUEST_STEP[r];
  const floor = Math.max(MINIMUM_REQUEST[r], c.policy?.minAllowed[r] ?? 0, bounds.min ?? 0);
  const candidate = { requests: { ...c.proposed.requests, [r]: lowered }, limits: c.proposed.limits };
  const ratioOk = bounds.maxRatioMilli === undefined || !exceedsRatio(value, lowered, bounds.maxRatioMilli);
  if (lowered >= floor && ratioOk && podFits(candidate)) {
    c.proposed = candidate;
    note(`request lowered to ${describeAmount(r, lowered)}, one step below the limit, so the Burstable pod does not become Guaranteed`);
    return;
  }
  c.proposed = revertResource(c, r);
  note('left unchanged, as the new values would make the Burstable pod Guaranteed');
}

function revertResource(c: GuardedContainer, r: ResourceName): ContainerResourceValues {
  const requests = { ...c.proposed.requests };
  const limits = { ...c.proposed.limits };
  const request = c.current.requests[r];
  const limit = c.current.limits[r];
  if (request === undefined) delete requests[r];
  else requests[r] = request;
  if (limit === undefined) delete limits[r];
  else limits[r] = limit;
  return { requests, limits };
}
