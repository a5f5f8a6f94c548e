/**
 * LimitRange items of type `Pod` bound the pod's totals: the requests (and limits) summed over its
 * containers and sidecars (an ordinary init container counts on its own: the total is the larger
 * of the sum and the biggest init container) must stay within min and max. When the plan would
 * break a bound that the current values meet, the changes that push the total over are scaled
 * back: each moving container goes a fraction f of the way from its current to its proposed
 * values, the largest f that fits. Example: pod max cpu 1, two containers at 300m, both
 * recommended 700m (total 1400m): f = (1000 - 600) / 800 = 0.5, so each gets 500m.
 * Moving part-way keeps every per-container rule that holds at both ends (request <= limit,
 * request == limit, LimitRange Container min/max and ratio); the result is rounded towards the
 * current value (and a limit that rounding leaves a fraction over the Container ratio is lowered)
 * (whole millicores, whole MiB), and a request the container did not have is added only with the
 * whole change. Because values round towards the current ones, planning again from a scaled-back
 * result may move a little further towards the target (never past the bound). maxLimitRequestRatio
 * of type Pod is not applied.
 */
import { RESOURCE_NAMES, type ResourceName } from 'kube-basics/resources';
import type { ContainerResourceValues } from './container-values.ts';
import type { ResourceBounds } from './limit-range.ts';
import { MIB, exceedsRatio, mulDivFloor } from './rounding.ts';

/** One container's current and proposed values. */
export interface PodShare {
  current: ContainerResourceValues;
  proposed: ContainerResourceValues;
}

/** A resource whose changes were scaled back, and by what fraction. */
export interface PodBoundAdjustment {
  resource: ResourceName;
  fraction: number;
  message: string;
}

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

/** True if the totals of these containers (plus init containers) meet the pod bounds for resource r. */
export function podTotalsFit(values: readonly ContainerResourceValues[], init: readonly ContainerResourceValues[], r: ResourceName, b: ResourceBounds): boolean {
  const requests = total(values, init, 'requests', r);
  const limits = total(values, init, 'limits', r);
  if (b.max !== undefined && ((requests ?? 0) > b.max || (limits ?? 0) > b.max)) return false;
  if (b.min !== undefined && requests !== undefined && requests < b.min) return false;
  return true;
}

/** Moves a value a fraction f of the way from `from` to `to`, rounded towards `from` on the resource's grid. */
function partWay(r: ResourceName, from: number | undefined, to: number | undefined, f: number): number | undefined {
  // A value the container did not have is added only with the whole change (f = 1).
  if (from === undefined) return f >= 1 ? to : undefined;
  if (to === undefined) return to;
  const grid = r === 'cpu' ? 1 : MIB;
  const step = Math.trunc(((to - from) * f) / grid) * grid;
  const value = from + step;
  // A memory step on the MiB grid can overshoot a target off the grid; never pass the target.
  return to >= from ? Math.min(value, to) : Math.max(value, to);
}

function interpolate(shares: readonly PodShare[], r: ResourceName, f: number, maxRatioMilli: number | undefined): ContainerResourceValues[] {
  return shares.map(({ current, proposed }) => {
    const v: ContainerResourceValues = { requests: { ...proposed.requests }, limits: { ...proposed.limits } };
    const request = partWay(r, current.requests[r], proposed.requests[r], f);
    let limit = partWay(r, current.limits[r], proposed.limits[r], f);
    // Rounding the request down can leave the limit a fraction over the Container ratio: lower the
    // limit, but never below both ends (an end over the ratio was so already; memory rules hold there).
    if (limit !== undefined && request !== undefined && maxRatioMilli !== undefined && exceedsRatio(limit, request, maxRatioMilli)) {
      const ends = [current.limits[r], proposed.limits[r]].filter((x): x is number => x !== undefined);
      limit = Math.max(request, mulDivFloor(request, maxRatioMilli, 1000), Math.min(...ends));
    }
    if (request === undefined) delete v.requests[r];
    else v.requests[r] = request;
    if (limit === undefined) delete v.limits[r];
    else v.limits[r] = limit;
    return v;
  });
}

/**
 * Scales back the proposed values so that the pod's totals meet the Pod LimitRange, for each
 * resource whose current totals meet it. Returns the new proposed values (same order) and notes.
 */
export function fitPodLimitRange(
  shares: readonly PodShare[],
  init: readonly ContainerResourceValues[],
  bounds: Readonly<Record<ResourceName, ResourceBounds>>,
  containerBounds: Readonly<Record<ResourceName, ResourceBounds>>,
): { proposed: ContainerResourceValues[]; adjustments: PodBoundAdjustment[] } {
  let working = shares.map((s) => ({ current: s.current, proposed: s.proposed }));
  const adjustments: PodBoundAdjustment[] = [];
  for (const r of RESOURCE_NAMES) {
    const b = bounds[r];
    if (b.min === undefined && b.max === undefined) continue;
    const proposed = working.map((s) => s.proposed);
    if (podTotalsFit(proposed, init, r, b)) continue;
    if (!podTotalsFit(working.map((s) => s.current), init, r, b)) continue; // already outside: nothing we can restore
    // Bisect the largest fraction that fits; 20 halvings resolve well below one millicore or MiB step.
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 20; i++) {
      const mid = (lo + hi) / 2;
      if (podTotalsFit(interpolate(working, r, mid, containerBounds[r].maxRatioMilli), init, r, b)) lo = mid;
      else hi = mid;
    }
    const fitted = interpolate(working, r, lo, containerBounds[r].maxRatioMilli);
    working = working.map((s, i) => ({ current: s.current, proposed: fitted[i]! }));
    const bound = [b.min !== undefined ? `min ${b.min}` : '', b.max !== undefined ? `max ${b.max}` : ''].filter(Boolean).join(', ');
    adjustments.push({
      resource: r,
      fraction: lo,
      message: `${r}: changes scaled back to ${Math.round(lo * 100)}% of the way so the pod's total stays within the Pod LimitRange (${bound}${r === 'cpu' ? 'm' : ' bytes'})`,
    });
  }
  return { proposed: working.map((s) => s.proposed), adjustments };
}
