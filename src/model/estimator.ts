/**
 * From aggregated history to a container estimate, the upstream way:
 *
 *   value      = percentile (CPU: of usage samples, in cores x 1000; memory: of interval peaks)
 *   + margin   = value + floor(value x 0.15)
 *   bounds     x (1 + m/c)^e with the confidence c (see confidence.ts)
 *   floors     = max(value, floor(podMin / containersInPod))  (25m and 250Mi per pod by default)
 *
 * Target p90, lower bound p50, upper bound p95 by default. Every step truncates to a whole
 * millicore / byte and saturates at `maxResourceAmount` (1e14), as upstream's integer resource
 * amounts do, so the numbers match upstream's exactly and are never NaN, negative or infinite. An
 * upper bound without history (c = 0) is therefore `maxResourceAmount`: effectively unbounded.
 *
 * Worked numbers: a steady 0.5 core lands in CPU bucket 25 [0.4773, 0.5111) cores, so p90 is the
 * bucket end 0.5111 -> 511m, +15% -> 511 + 76 = 587m target. After 24h of minute samples (c = 1)
 * the upper bound is 587 x 2 = 1174m; after a week (c = 7) 587 x 8/7 = 670m.
 */
import type { ResourceEstimate, Resources } from './types.ts';
import type { AggregateContainerState } from './aggregate-container-state.ts';
import { confidenceFactor, historyConfidence } from './confidence.ts';
import { scaleResourceAmount, toResourceAmount } from './resource-amount.ts';

export { scaleResourceAmount, toResourceAmount } from './resource-amount.ts';

/** The per-container floors: the per-pod minimum split evenly across `containersInPod`. */
export function containerFloors(podMinCpuMillicores: number, podMinMemoryBytes: number, containersInPod: number, max: number): Resources {
  const share = 1 / Math.max(1, Math.floor(containersInPod));
  return {
    cpu: scaleResourceAmount(toResourceAmount(podMinCpuMillicores, max), share, max),
    memory: scaleResourceAmount(toResourceAmount(podMinMemoryBytes, max), share, max),
  };
}

/**
 * True when a container's history holds evidence to estimate from: a CPU sample, or an OOM kill.
 * Upstream (since VPA 0.13, kubernetes/autoscaler#5326) estimates every container of a matched pod,
 * with or without samples; Tailor leaves a container with neither without an estimate (its VPA says
 * NoSamples), but one killed before its first sample is estimated as upstream does it: memory from
 * the OOM bump, CPU at the floor (a crash-looping container would otherwise never get one; decision
 * 0298).
 */
export function hasEvidence(state: Pick<AggregateContainerState, 'totalSamplesCount' | 'oomKillCount'>): boolean {
  return state.totalSamplesCount > 0 || state.oomKillCount > 0;
}

/**
 * The estimate for one container, or undefined without evidence ({@link hasEvidence}).
 * `containersInPod` counts the pod's containers that get an estimate; the pod floors are split
 * across them. Worked numbers (upstream v1.8.1's, from its own code): a container whose only history
 * is an OOM kill at a 48 MiB request -> CPU 25m / 25m / 25m (target / lower / upper: the floor),
 * memory 250 MiB / 250 MiB / 1e14 (the bump, 148 MiB, + 15% is below the floor; the upper bound has
 * no history); at a 1 GiB request the memory target is 1,555,165,137 bytes.
 */
export function estimateContainer(state: AggregateContainerState, containersInPod = 1): ResourceEstimate | undefined {
  if (!hasEvidence(state)) return undefined;
  const o = state.config.options;
  const max = o.maxResourceAmount;
  const percentiles = (cpuP: number, memoryP: number): Resources => {
    const cpu = toResourceAmount(state.cpu.percentile(cpuP) * 1000, max);
    const memory = toResourceAmount(state.memoryPeaks.percentile(memoryP), max);
    return {
      cpu: toResourceAmount(cpu + scaleResourceAmount(cpu, o.safetyMarginFraction, max), max),
      memory: toResourceAmount(memory + scaleResourceAmount(memory, o.safetyMarginFraction, max), max),
    };
  };
  const confidence = historyConfidence(state);
  const scaled = (r: Resources, multiplier: number, exponent: number): Resources => {
    const factor = confidenceFactor(multiplier, exponent, confidence);
    return { cpu: scaleResourceAmount(r.cpu, factor, max), memory: scaleResourceAmount(r.memory, factor, max) };
  };
  const floors = containerFloors(o.podMinCpuMillicores, o.podMinMemoryBytes, containersInPod, max);
  const floored = (r: Resources): Resources => ({ cpu: Math.max(r.cpu, floors.cpu), memory: Math.max(r.memory, floors.memory) });

  return {
    target: floored(percentiles(o.targetCpuPercentile, o.targetMemoryPercentile)),
    lowerBound: floored(
      scaled(percentiles(o.lowerBoundCpuPercentile, o.lowerBoundMemoryPercentile), o.lowerBoundConfidenceMultiplier, o.lowerBoundConfidenceExponent),
    ),
    upperBound: floored(
      scaled(percentiles(o.upperBoundCpuPercentile, o.upperBoundMemoryPercentile), o.upperBoundConfidenceMultiplier, o.upperBoundConfidenceExponent),
    ),
  };
}

/**
 * Estimates for all containers of a pod (by container name), as upstream does per VPA: containers
 * without evidence (no CPU sample, no OOM kill) get no estimate, and the per-pod floors are split
 * across those that do.
 * Worked number: three containers of which two have samples -> each gets a 12m / 125 MiB floor.
 */
export function estimatePodContainers(states: ReadonlyMap<string, AggregateContainerState>): Map<string, ResourceEstimate> {
  let withSamples = 0;
  for (const state of states.values()) if (hasEvidence(state)) withSamples++;
  const result = new Map<string, ResourceEstimate>();
  for (const [name, state] of states) {
    const estimate = estimateContainer(state, withSamples);
    if (estimate) result.set(name, estimate);
  }
  return result;
}
