/**
 * New requests and limits for one container from its recommendation, its container policy and the
 * namespace's LimitRange. Per controlled resource, in this order:
 * 1. request = the target rounded up (cpu to 1m, memory to 1 MiB), at least 1m / 1 MiB;
 * 2. clamped to the VPA's minAllowed, then maxAllowed (maxAllowed wins if they conflict);
 * 3. clamped to the LimitRange Container min, then max (the API server enforces these, so they win).
 *    Where the limit scales with the request, the max bounds the scaled limit, as upstream: the
 *    request may rise only to max x oldRequest / oldLimit, rounded down (100m/150m, max 300m ->
 *    request at most 200m, limit 300m);
 * 4. limit: none is added where none was set. `RequestsOnly` keeps the limit and caps the request at
 *    it (and raises the request if the LimitRange ratio needs it). `RequestsAndLimits` scales the
 *    limit with the request: newLimit = oldLimit x newRequest / oldRequest, rounded up (request 100m,
 *    limit 200m, new request 250m -> limit 500m); request == limit stays equal; the scaled limit is
 *    then capped at the LimitRange max and at request x maxLimitRequestRatio.
 * 5. in a Guaranteed pod, `RequestsOnly` would break request == limit, so the resource is left alone;
 * 6. memory limit rules (the updater's): a memory limit is not lowered below a floor (recent peak
 *    plus margin) or, where the server forbids it, not lowered at all.
 * The Pod LimitRange (pod-limit-range.ts) and the pod-wide QoS rule (qos-guard.ts) come after this.
 */
import type { ResourceAmounts } from '../api/vpa-quantities.ts';
import { RESOURCE_NAMES, type ResourceName } from 'kube-basics/resources';
import { describeAmount, type Adjustment, type AdjustmentCode } from './adjustments.ts';
import type { EffectiveContainerPolicy } from './container-policy.ts';
import type { ContainerResourceValues } from './container-values.ts';
import type { ResourceBounds } from './limit-range.ts';
import { MINIMUM_REQUEST, exceedsRatio, mulDivCeil, mulDivFloor, roundUp } from './rounding.ts';

/** What one container's plan is computed from. */
export interface ContainerPlanInput {
  containerName: string;
  current: ContainerResourceValues;
  /** The recommended requests (the VPA target), as numbers. */
  target: ResourceAmounts;
  policy: EffectiveContainerPolicy;
  /** LimitRange bounds of type Container. */
  limitRange: Readonly<Record<ResourceName, ResourceBounds>>;
  /** True when the pod is Guaranteed (requests must stay equal to limits). */
  guaranteed: boolean;
  /** Memory limit safety rules for this container (the updater's; the webhook has none). */
  memoryLimitRules?: MemoryLimitRules;
  /**
   * Set when the target is a request already scaled to fit a Pod LimitRange (pod-resources.ts):
   * it is taken as it is (no rounding up to whole MiB), and the scaled limit is rounded the same
   * way (`lower`: down, so the summed limits stay within the max; `raise`: up).
   */
  podBound?: 'raise' | 'lower';
}

/**
 * How far a running container's memory limit may go down. `floor` (bytes): never below it, e.g.
 * recent peak usage plus a margin; a limit already below the floor is not lowered further.
 * `mayDecrease: false`: not at all (Kubernetes 1.33 refuses to lower a memory limit in place unless
 * the container's memory resizePolicy is RestartContainer). Where the limit is kept up, a request
 * equal to it stays equal, and a request is raised as far as the LimitRange ratio needs.
 */
export interface MemoryLimitRules {
  floor?: number;
  mayDecrease?: boolean;
  /** Why the floor is there, for the adjustment (default: recent peak usage plus margin). */
  floorReason?: string;
}

/** The proposed values for one container and why they differ from the target. */
export interface ContainerPlanResult {
  proposed: ContainerResourceValues;
  reasons: Adjustment[];
}

/** Plans the container's cpu and memory. Pure; never returns NaN or a negative value. */
export function planContainer(input: ContainerPlanInput): ContainerPlanResult {
  const proposed: ContainerResourceValues = { requests: { ...input.current.requests }, limits: { ...input.current.limits } };
  const reasons: Adjustment[] = [];
  for (const resource of RESOURCE_NAMES) {
    if (!input.policy.controlledResources.includes(resource)) continue;
    const target = input.target[resource];
    if (target === undefined) continue;
    const note = (code: AdjustmentCode, message: string) =>
      reasons.push({ code, container: input.containerName, resource, message: `${resource}: ${message}` });
    const planned = planResource(input, resource, target, note);
    if (!planned) continue;
    proposed.requests[resource] = planned.request;
    if (planned.limit === undefined) delete proposed.limits[resource];
    else proposed.limits[resource] = planned.limit;
  }
  return { proposed, reasons };
}

type Note = (code: AdjustmentCode, message: string) => void;

function planResource(input: ContainerPlanInput, r: ResourceName, target: number, note: Note): { request: number; limit: number | undefined } | undefined {
  const { policy, limitRange, current } = input;
  const amount = (v: number) => describeAmount(r, v);
  if (!Number.isFinite(target) || target < 0) {
    note('InvalidRecommendation', `recommendation ${target} is not a valid amount; left unchanged`);
    return undefined;
  }
  if (input.guaranteed && policy.controlledValues === 'RequestsOnly') {
    note('GuaranteedKept', 'controlledValues RequestsOnly would make the request differ from the limit of this Guaranteed pod; left unchanged');
    return undefined;
  }
  const oldRequest = current.requests[r];
  const oldLimit = current.limits[r];
  const lr = limitRange[r];

  let request = input.podBound ? Math.ceil(target) : roundUp(r, target);
  if (target > Number.MAX_SAFE_INTEGER) note('ValueTooLarge', `recommendation ${target} is too large; using ${amount(request)}`);
  if (request < MINIMUM_REQUEST[r]) {
    request = MINIMUM_REQUEST[r];
    note('RaisedToMinimum', `request raised to the minimum ${amount(request)}`);
  }
  const minAllowed = policy.minAllowed[r];
  if (minAllowed !== undefined && request < minAllowed) {
    note('RaisedToMinAllowed', `request ${amount(request)} raised to minAllowed ${amount(minAllowed)}`);
    request = minAllowed;
  }
  const maxAllowed = policy.maxAllowed[r];
  if (maxAllowed !== undefined && request > maxAllowed) {
    note('CappedToMaxAllowed', `request ${amount(request)} capped to maxAllowed ${amount(maxAllowed)}`);
    request = maxAllowed;
  }
  if (lr.min !== undefined && request < lr.min) {
    note('RaisedToLimitRangeMin', `request ${amount(request)} raised to the LimitRange min ${amount(lr.min)}`);
    request = lr.min;
  }
  const ratio =
    policy.controlledValues === 'RequestsAndLimits' && oldLimit !== undefined && oldRequest !== undefined && oldRequest > 0
      ? { oldRequest, oldLimit }
      : undefined;
  const maxRequest = lr.max === undefined ? undefined : ratio ? maxRequestForLimit(ratio, lr.max, lr) : lr.max;
  if (lr.max !== undefined && maxRequest !== undefined && request > maxRequest) {
    const message =
      ratio && maxRequest !== lr.max
        ? `request ${amount(request)} capped to ${amount(maxRequest)}, so that the limit scaled with it (now ${amount(ratio.oldLimit)} for ${amount(ratio.oldRequest)}) stays within the LimitRange max ${amount(lr.max)}`
        : `request ${amount(request)} capped to the LimitRange max ${amount(lr.max)}`;
    note('CappedToLimitRangeMax', message);
    request = maxRequest;
  }

  if (oldLimit === undefined) return { request, limit: undefined };

  if (!ratio || oldRequest === undefined) {
    if (policy.controlledValues === 'RequestsAndLimits') {
      note('LimitNotScaled', `limit ${amount(oldLimit)} kept: the current request is 0, so there is no ratio to scale by`);
    }
    if (request > oldLimit) {
      note('RequestCappedToLimit', `request ${amount(request)} capped to the unchanged limit ${amount(oldLimit)}`);
      request = oldLimit;
    }
    if (lr.maxRatioMilli !== undefined && exceedsRatio(oldLimit, request, lr.maxRatioMilli)) {
      const raised = Math.min(oldLimit, mulDivCeil(oldLimit, 1000, lr.maxRatioMilli));
      note(
        'RequestRaisedForLimitRangeRatio',
        `request ${amount(request)} raised to ${amount(raised)} so that limit ${amount(oldLimit)} / request stays within the LimitRange maxLimitRequestRatio ${lr.maxRatioMilli / 1000}`,
      );
      request = raised;
    }
    return { request, limit: oldLimit };
  }

  const lowest = r === 'memory' ? lowestMemoryLimit(input.memoryLimitRules, oldLimit) : undefined;
  if (lowest !== undefined && lr.max !== undefined && lowest > lr.max) {
    note('MemoryLimitKept', `left unchanged: the lowest safe limit ${amount(lowest)} is above the LimitRange max ${amount(lr.max)}`);
    return undefined;
  }

  if (oldRequest === oldLimit) {
    if (lowest !== undefined && request < lowest) {
      note(
        'MemoryLimitKept',
        `request and limit kept at ${amount(lowest)}, not the ${amount(request)} recommended: ${lowestReason(input.memoryLimitRules, lowest, oldLimit)}`,
      );
      request = lowest;
    }
    if (request !== oldLimit) note('LimitKeptEqualToRequest', `limit set to ${amount(request)}, equal to the request as before`);
    return { request, limit: request };
  }

  // newLimit = oldLimit x newRequest / oldRequest, e.g. 200m x 250m / 100m = 500m.
  const scaled =
    input.podBound === 'lower'
      ? mulDivFloor(oldLimit, request, oldRequest)
      : input.podBound === 'raise'
        ? mulDivCeil(oldLimit, request, oldRequest)
        : roundUp(r, mulDivCeil(oldLimit, request, oldRequest));
  let limit = Math.max(request, scaled);
  if (limit !== oldLimit) {
    note('LimitScaled', `limit ${amount(oldLimit)} scaled to ${amount(limit)} with the request (${amount(oldRequest)} -> ${amount(request)})`);
  }
  if (lr.max !== undefined && limit > lr.max) {
    note('LimitCappedToLimitRangeMax', `limit ${amount(limit)} capped to the LimitRange max ${amount(lr.max)}`);
    limit = Math.max(request, lr.max);
  }
  if (lr.maxRatioMilli !== undefined && exceedsRatio(limit, request, lr.maxRatioMilli)) {
    const capped = Math.max(request, mulDivFloor(request, lr.maxRatioMilli, 1000));
    note(
      'LimitCappedToLimitRangeRatio',
      `limit ${amount(limit)} capped to ${amount(capped)}, request x the LimitRange maxLimitRequestRatio ${lr.maxRatioMilli / 1000}`,
    );
    limit = capped;
  }
  if (lowest !== undefined && limit < lowest) {
    note('MemoryLimitKept', `limit kept at ${amount(lowest)}, not ${amount(limit)}: ${lowestReason(input.memoryLimitRules, lowest, oldLimit)}`);
    limit = lowest;
    if (lr.maxRatioMilli !== undefined && exceedsRatio(limit, request, lr.maxRatioMilli)) {
      const raised = Math.min(limit, mulDivCeil(limit, 1000, lr.maxRatioMilli));
      note(
        'RequestRaisedForLimitRangeRatio',
        `request ${amount(request)} raised to ${amount(raised)} so that limit ${amount(limit)} / request stays within the LimitRange maxLimitRequestRatio ${lr.maxRatioMilli / 1000}`,
      );
      request = raised;
    }
  }
  return { request, limit };
}

/**
 * The largest request whose limit, scaled with it, stays within the LimitRange max:
 * floor(max x oldRequest / oldLimit), as upstream (100m/150m, max 300m -> 200m). Where the old
 * ratio exceeds maxLimitRequestRatio the limit will be capped at that ratio, so that ratio is the
 * one to divide by, rounded up (the limit is then capped at the max, within the ratio, and the
 * next plan finds the same request). Never below the LimitRange min: there the ratio gives way
 * and the limit is capped at the max.
 */
function maxRequestForLimit(old: { oldRequest: number; oldLimit: number }, max: number, lr: ResourceBounds): number {
  const byRatio =
    lr.maxRatioMilli !== undefined && exceedsRatio(old.oldLimit, old.oldRequest, lr.maxRatioMilli)
      ? mulDivCeil(max, 1000, lr.maxRatioMilli)
      : mulDivFloor(old.oldRequest, max, old.oldLimit);
  return Math.max(byRatio, Math.min(lr.min ?? 0, max));
}

/** The lowest memory limit the rules allow: the old limit if it may not decrease, else min(old, floor). */
function lowestMemoryLimit(rules: MemoryLimitRules | undefined, oldLimit: number): number | undefined {
  if (!rules) return undefined;
  let lowest = 0;
  if (rules.mayDecrease === false) lowest = oldLimit;
  if (rules.floor !== undefined && Number.isFinite(rules.floor)) lowest = Math.max(lowest, Math.min(oldLimit, Math.ceil(rules.floor)));
  return lowest > 0 ? lowest : undefined;
}

function lowestReason(rules: MemoryLimitRules | undefined, lowest: number, oldLimit: number): string {
  if (rules?.mayDecrease === false && lowest === oldLimit) return 'a memory limit may not be lowered in place here';
  return `a memory limit is not lowered below ${rules?.floorReason ?? 'recent peak usage plus margin'}`;
}
