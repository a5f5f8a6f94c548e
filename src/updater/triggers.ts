/**
 * When to act on a pod (issue 7; upstream's rules plus the OOM and pressure rules):
 * - `OutsideBounds`: some container's actual request is below the recommendation's lowerBound or
 *   above its upperBound (a missing request counts as 0), whatever the pod's age;
 * - `Drift`: the pod is at least `minPodAgeForDriftMs` old (12h) and the relative difference
 *   between the requests and the targets, summed over the resources of the pod, is at least
 *   `driftThreshold` (10%). Per resource: |sum of targets - sum of requests| / sum of requests.
 *   Example: cpu requests 100m, target 112m -> 0.12; memory 1Gi vs 1Gi -> 0; total 0.12 >= 0.10.
 * - `OomKilled`: a container was OOM-killed recently (oom.ts): act on memory at once, any age;
 * - `MemoryPressure`: a container's working set stays near its memory limit (memory-pressure.ts).
 * The last two are urgent: they skip the age rule, the cooldown and the canary wait. A container
 * short of its lowerBound by the drift threshold (`shortContainers`) skips the cooldown alone.
 */
import type { NumericContainerRecommendation } from '../api/vpa-quantities.ts';
import type { ContainerResourceValues } from '../policy/container-values.ts';
import { describeAmount } from '../policy/adjustments.ts';
import { RESOURCE_NAMES } from '../model/types.ts';
import type { UpdaterOptions } from '../policy/update-thresholds.ts';
import { isDrift, oldEnoughToDrift, relativeChange, shortOfLowerBound } from '../policy/change-rules.ts';

export type TriggerReason = 'OutsideBounds' | 'Drift' | 'OomKilled' | 'MemoryPressure';

/** One reason to act, with the containers it concerns. */
export interface Trigger {
  reason: TriggerReason;
  containers: string[];
  message: string;
}

/** What the triggers are evaluated on. */
export interface TriggerInput {
  /** Actual requests and limits by container name. */
  actual: ReadonlyMap<string, ContainerResourceValues>;
  recommendations: readonly NumericContainerRecommendation[];
  /** ms since the pod started; undefined if unknown (then the age rule does not apply). */
  podAgeMs: number | undefined;
  oomKilled: readonly string[];
  underPressure: readonly string[];
  options: Pick<UpdaterOptions, 'minPodAgeForDriftMs' | 'driftThreshold'>;
}

/** The relative difference between requests and targets, summed over resources (pod totals). */
export function relativeDifference(actual: ReadonlyMap<string, ContainerResourceValues>, recommendations: readonly NumericContainerRecommendation[]): number {
  let total = 0;
  for (const r of RESOURCE_NAMES) {
    let requests = 0;
    let targets = 0;
    for (const rec of recommendations) {
      const target = rec.target[r];
      if (target === undefined) continue;
      targets += target;
      requests += actual.get(rec.containerName)?.requests[r] ?? 0;
    }
    total += relativeChange(requests, targets);
  }
  return total;
}

/**
 * The containers with a request short of the recommendation's lowerBound by at least the drift
 * threshold (change-rules.ts `shortOfLowerBound`; a missing request counts as 0): their raise is
 * not held by the cooldown. cpu request 250m, lowerBound 481m -> short.
 */
export function shortContainers(
  actual: ReadonlyMap<string, ContainerResourceValues>,
  recommendations: readonly NumericContainerRecommendation[],
  options: Pick<UpdaterOptions, 'driftThreshold'>,
): string[] {
  const out: string[] = [];
  for (const rec of recommendations) {
    const current = actual.get(rec.containerName);
    if (!current) continue;
    const short = RESOURCE_NAMES.some((r) => {
      const lower = rec.lowerBound?.[r];
      return rec.target[r] !== undefined && lower !== undefined && shortOfLowerBound(current.requests[r] ?? 0, lower, options);
    });
    if (short) out.push(rec.containerName);
  }
  return out;
}

/** The reasons to act on the pod now, most urgent first; empty when it should be left as it is. */
export function updateTriggers(input: TriggerInput): Trigger[] {
  const out: Trigger[] = [];
  if (input.oomKilled.length > 0) {
    out.push({ reason: 'OomKilled', containers: [...input.oomKilled], message: `OOM-killed recently: ${input.oomKilled.join(', ')}` });
  }
  if (input.underPressure.length > 0) {
    out.push({
      reason: 'MemoryPressure',
      containers: [...input.underPressure],
      message: `working set near the memory limit: ${input.underPressure.join(', ')}`,
    });
  }
  const outside: string[] = [];
  const details: string[] = [];
  for (const rec of input.recommendations) {
    const current = input.actual.get(rec.containerName);
    if (!current) continue;
    for (const r of RESOURCE_NAMES) {
      if (rec.target[r] === undefined) continue;
      const request = current.requests[r] ?? 0;
      const lower = rec.lowerBound?.[r] ?? 0;
      const upper = rec.upperBound?.[r] ?? Number.POSITIVE_INFINITY;
      if (request < lower || request > upper) {
        if (!outside.includes(rec.containerName)) outside.push(rec.containerName);
        const bound = request < lower ? `below lowerBound ${describeAmount(r, lower)}` : `above upperBound ${describeAmount(r, upper)}`;
        details.push(`${rec.containerName} ${r} request ${describeAmount(r, request)} ${bound}`);
      }
    }
  }
  if (outside.length > 0) out.push({ reason: 'OutsideBounds', containers: outside, message: details.join('; ') });
  const { minPodAgeForDriftMs, driftThreshold } = input.options;
  if (oldEnoughToDrift(input.podAgeMs, input.options)) {
    const diff = relativeDifference(input.actual, input.recommendations);
    if (isDrift(diff, input.options)) {
      out.push({
        reason: 'Drift',
        containers: input.recommendations.map((r) => r.containerName),
        message: `requests differ from the targets by ${Math.round(diff * 100)}% (threshold ${Math.round(driftThreshold * 100)}%) on a pod older than ${Math.round(minPodAgeForDriftMs / 3_600_000)}h`,
      });
    }
  }
  return out;
}
