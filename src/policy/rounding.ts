/**
 * How computed amounts become exact quantities. CPU: whole millicores, rounded up (`249.2` -> 250m).
 * Memory: whole MiB, rounded up (`300000000` bytes -> 287Mi = 300941312 bytes), so that values read
 * well (`287Mi`, not `300000000`) and never land a few bytes under what was asked for. Bounds
 * applied afterwards (maxAllowed, LimitRange) are exact and may leave a value off the MiB grid.
 */
import type { ResourceName } from 'kube-basics/resources';

export const MIB = 1024 * 1024;

/** The smallest request the policy writes: 1 millicore, 1 MiB (a zero request would drop QoS). */
export const MINIMUM_REQUEST: Readonly<Record<ResourceName, number>> = { cpu: 1, memory: MIB };

/** The step by which a request is lowered to keep a Burstable pod Burstable: 1m, 1 MiB. */
export const REQUEST_STEP: Readonly<Record<ResourceName, number>> = { cpu: 1, memory: MIB };

/** Rounds an amount up to the resource's grid: cpu to 1m, memory to 1 MiB. */
export function roundUp(resource: ResourceName, value: number): number {
  const grid = resource === 'cpu' ? 1 : MIB;
  return Math.min(Math.ceil(value / grid) * grid, Number.MAX_SAFE_INTEGER);
}

/** ceil(a x b / c) for non-negative safe integers, exact (BigInt), saturating at MAX_SAFE_INTEGER. */
export function mulDivCeil(a: number, b: number, c: number): number {
  const num = BigInt(a) * BigInt(b);
  const den = BigInt(c);
  let q = num / den;
  if (num % den !== 0n) q += 1n;
  return q > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(q);
}

/** floor(a x b / c) for non-negative safe integers, exact (BigInt), saturating at MAX_SAFE_INTEGER. */
export function mulDivFloor(a: number, b: number, c: number): number {
  const q = (BigInt(a) * BigInt(b)) / BigInt(c);
  return q > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(q);
}

/** True if limit / request > ratioMilli / 1000, compared exactly (limit x 1000 > request x ratioMilli). */
export function exceedsRatio(limit: number, request: number, ratioMilli: number): boolean {
  return BigInt(limit) * 1000n > BigInt(request) * BigInt(ratioMilli);
}
