/**
 * LimitRange items of type `Pod` bound the pod's totals: the requests and the limits summed over
 * its containers and sidecars (an ordinary init container counts on its own: the total is the
 * larger of the sum and the biggest init container). The API server's LimitRanger refuses a pod
 * whose summed requests or limits are below min or above max.
 *
 * When the planned totals are out of bounds, every movable container's request is scaled by one
 * factor and its limit follows with the container's limit/request ratio, as upstream's
 * `applyPodLimitRange` does (docs/decisions/0278):
 * - below min: factor = (min - fixed) / movable sum of requests (or of limits, whichever needs
 *   more), rounded up. Pod min 150m, requests 4m + 21m + 90m = 115m: 4m x 150/115 = 5.2 -> 6m,
 *   21m -> 28m, 90m -> 118m;
 * - above max: factor = (max - fixed) / movable sum of limits (or of requests, whichever needs
 *   more), rounded down. Pod max 80m, request == limit 4m, 21m, 90m: 4m x 80/115 = 2.8 -> 2m,
 *   21m -> 14m, 90m -> 62m.
 * Which containers are movable is the caller's choice (pod-resources.ts): at pod creation all of
 * them, those without a recommendation too (upstream); in place only those with one, the others
 * count as `fixed`. maxLimitRequestRatio of type Pod is not applied.
 */
import type { ResourceName } from 'kube-basics/resources';
import { describeAmount } from './adjustments.ts';
import type { ContainerResourceValues } from './container-values.ts';
import type { ResourceBounds } from './limit-range.ts';
import { mulDivCeil, mulDivFloor } from './rounding.ts';

type Side = 'requests' | 'limits';

function total(values: readonly ContainerResourceValues[], init: readonly ContainerResourceValues[], side: Side, r: ResourceName): number | undefined {
  let sum: number | undefined;
  for (const v of values) {
    const x = v[side][r];
    if (x !== undefined) sum = (sum ?? 0) + x;
  }
  for (const v of init) {
    const x = v[side][r];
    if (x !== undefined) sum = Math.max(sum ?? 0, x);
  }
  return sum;
}

/**
 * True if the totals of these containers (plus init containers) meet the pod bounds for resource
 * r: requests and limits both within [min, max], as the LimitRanger checks. A pod with no request
 * (or no limit) at all for r is not out of bounds here on that side: no plan can add one.
 */
export function podTotalsFit(
  values: readonly ContainerResourceValues[],
  init: readonly ContainerResourceValues[],
  r: ResourceName,
  b: ResourceBounds,
): boolean {
  for (const side of ['requests', 'limits'] as const) {
    const sum = total(values, init, side, r);
    if (sum === undefined) continue;
    if (b.max !== undefined && sum > b.max) return false;
    if (b.min !== undefined && sum < b.min) return false;
  }
  return true;
}

/** One container's planned request and limit for a resource, and whether it may be scaled. */
export interface PodBoundShare {
  request?: number;
  limit?: number;
  movable: boolean;
}

/** How to scale the movable requests: x num / den, rounded up (`raise`) or down (`lower`). */
export interface PodBoundScale {
  direction: 'raise' | 'lower';
  num: number;
  den: number;
  /** Why, for the adjustment: `cpu: the pod's total limit 115m is above the Pod LimitRange max 80m`. */
  why: string;
}

/** The totals cannot be brought within the bounds by scaling (nothing movable, or the fixed part alone breaks them). */
export interface PodBoundUnfit {
  direction: 'unfit';
  why: string;
}

interface Sums {
  fixed: number;
  movable: number;
  any: boolean;
}

function sums(shares: readonly PodBoundShare[], key: 'request' | 'limit'): Sums {
  const out: Sums = { fixed: 0, movable: 0, any: false };
  for (const s of shares) {
    const v = s[key];
    if (v === undefined) continue;
    out.any = true;
    if (s.movable) out.movable += v;
    else out.fixed += v;
  }
  return out;
}

/** A factor num / den (den > 0) and what asks for it. */
interface Factor {
  num: number;
  den: number;
  side: 'request' | 'limit';
  bound: number;
}

/** a/b < c/d for non-negative numerators and positive denominators, exactly. */
function lessThan(x: Factor, y: Factor): boolean {
  return BigInt(x.num) * BigInt(y.den) < BigInt(y.num) * BigInt(x.den);
}

const ONE: Factor = { num: 1, den: 1, side: 'request', bound: 0 };

/**
 * The scale that brings the totals of resource r within the Pod bounds `b`, undefined when they
 * already fit. Every side (summed requests, summed limits) bounds the factor f: fixed + f x
 * movable within [min, max]. Below min, f is the smallest that lifts every side to min; above
 * max, the largest that brings every side down to max; either must keep the other bound. With
 * every request under a limit that is upstream's choice: min / sum of requests, max / sum of
 * limits. Sums are over containers and sidecars only; ordinary init containers are checked
 * afterwards (podTotalsFit).
 */
export function podBoundScale(shares: readonly PodBoundShare[], r: ResourceName, b: ResourceBounds): PodBoundScale | PodBoundUnfit | undefined {
  const amount = (v: number) => describeAmount(r, v);
  let low: Factor | undefined;
  let high: Factor | undefined;
  for (const side of ['request', 'limit'] as const) {
    const s = sums(shares, side);
    if (!s.any) continue;
    const sum = s.fixed + s.movable;
    const stuck = (bound: string) => ({
      direction: 'unfit' as const,
      why: `${r}: the pod's total ${side} ${amount(sum)}, of which ${amount(s.fixed)} cannot move, is ${bound}`,
    });
    if (b.min !== undefined) {
      if (s.movable > 0) {
        const f: Factor = { num: Math.max(0, b.min - s.fixed), den: s.movable, side, bound: b.min };
        if (!low || lessThan(low, f)) low = f;
      } else if (sum < b.min) return stuck(`below the Pod LimitRange min ${amount(b.min)}`);
    }
    if (b.max !== undefined) {
      if (s.movable > 0 && b.max >= s.fixed) {
        const f: Factor = { num: b.max - s.fixed, den: s.movable, side, bound: b.max };
        // On a tie the limit names the cause, as the LimitRanger checks the limit first against max.
        if (!high || !lessThan(high, f)) high = f;
      } else if (sum > b.max) return stuck(`above the Pod LimitRange max ${amount(b.max)}`);
    }
  }
  const raise = low !== undefined && lessThan(ONE, low);
  const lower = high !== undefined && lessThan(high, ONE);
  if (!raise && !lower) return undefined;
  if (low && high && lessThan(high, low)) {
    return {
      direction: 'unfit',
      why: `${r}: no single scale brings the pod's total requests and limits within the Pod LimitRange min ${amount(b.min!)} and max ${amount(b.max!)}`,
    };
  }
  const f = raise ? low! : high!;
  const sum = sums(shares, f.side);
  const where = raise ? `below the Pod LimitRange min ${amount(f.bound)}` : `above the Pod LimitRange max ${amount(f.bound)}`;
  return {
    direction: raise ? 'raise' : 'lower',
    num: f.num,
    den: f.den,
    why: `${r}: the pod's total ${f.side} ${amount(sum.fixed + sum.movable)} is ${where}`,
  };
}

/** A movable request scaled: ceil(value x num / den) when raising, floor when lowering. */
export function scaleForPodBound(value: number, scale: PodBoundScale): number {
  return scale.direction === 'raise' ? mulDivCeil(value, scale.num, scale.den) : mulDivFloor(value, scale.num, scale.den);
}
