/**
 * Upstream's `--round-cpu-millicores` and `--round-memory-bytes`, as `tailor run` options of the
 * same names: each figure of an estimate (target, lowerBound, upperBound, and so uncappedTarget) is
 * rounded UP to a multiple of the factor, before the VPA's policy caps it (upstream's
 * `RoundUpToScale` in `model.ResourcesAsResourceList`, then its capping post-processor). So a
 * target is never below what was computed, and capping still lands exactly on minAllowed or
 * maxAllowed, off the grid or not. A factor of 1 (upstream's default for both) changes nothing.
 *
 * Worked number: memory 235358127 bytes with 1Mi (Tailor's default, decision 0285) -> 225Mi
 * (235929600 bytes), where upstream's default writes `235358127`.
 */
import type { ResourceEstimate, Resources } from '../model/types.ts';

/** The factors: CPU in millicores, memory in bytes; 1 = no rounding. */
export interface StatusRounding {
  cpuMillicores: number;
  memoryBytes: number;
}

/** Rounds `value` up to a multiple of `factor` (upstream: ceil(value / factor) x factor). */
export function roundUpToMultiple(value: number, factor: number): number {
  if (factor <= 1 || value === 0 || !Number.isFinite(value)) return value;
  return Math.min(Math.ceil(value / factor) * factor, Number.MAX_SAFE_INTEGER);
}

function roundResources(r: Resources, rounding: StatusRounding): Resources {
  return { cpu: roundUpToMultiple(r.cpu, rounding.cpuMillicores), memory: roundUpToMultiple(r.memory, rounding.memoryBytes) };
}

/** The estimate with every figure rounded up; the same object when both factors are 1. */
export function roundEstimate(e: ResourceEstimate, rounding: StatusRounding | undefined): ResourceEstimate {
  if (!rounding || (rounding.cpuMillicores <= 1 && rounding.memoryBytes <= 1)) return e;
  return { target: roundResources(e.target, rounding), lowerBound: roundResources(e.lowerBound, rounding), upperBound: roundResources(e.upperBound, rounding) };
}
