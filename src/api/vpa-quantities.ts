/**
 * Conversions between the VPA's string quantities (`{cpu: "250m", memory: "512Mi"}`) and the
 * numbers the core computes with (CPU in millicores, memory in bytes): `{cpu: 250, memory: 536870912}`.
 * Resources a list leaves out stay out (a VPA controlling only cpu recommends only cpu).
 */
import { formatCpu, formatMemory, parseCpu, parseMemory } from 'kube-basics/quantity';
import { RESOURCE_NAMES, type Resources } from 'kube-basics/resources';
import type { ContainerRecommendation } from './recommendation.ts';
import type { RecommendedContainerResources, ResourceList } from './vpa.ts';

/** Some of cpu (millicores) and memory (bytes). */
export type ResourceAmounts = Partial<Resources>;

/** A container recommendation as numbers; resources absent from the status stay absent. */
export interface NumericContainerRecommendation {
  containerName: string;
  target: ResourceAmounts;
  lowerBound?: ResourceAmounts;
  upperBound?: ResourceAmounts;
  uncappedTarget?: ResourceAmounts;
}

/** `{cpu: "250m", memory: "1Gi"}` -> `{cpu: 250, memory: 1073741824}`. Throws QuantityError on a bad quantity. */
export function resourceListToAmounts(list: ResourceList | undefined): ResourceAmounts {
  const out: ResourceAmounts = {};
  if (!list) return out;
  if (list.cpu !== undefined) out.cpu = parseCpu(list.cpu);
  if (list.memory !== undefined) out.memory = parseMemory(list.memory);
  return out;
}

/** `{cpu: 1500, memory: 536870912}` -> `{cpu: "1500m", memory: "512Mi"}`; fractions round up. */
export function amountsToResourceList(amounts: ResourceAmounts): ResourceList {
  const out: ResourceList = {};
  for (const name of RESOURCE_NAMES) {
    const value = amounts[name];
    if (value === undefined) continue;
    out[name] = name === 'cpu' ? formatCpu(value) : formatMemory(value);
  }
  return out;
}

/** Reads a status container recommendation into numbers. Throws QuantityError on a bad quantity. */
export function recommendationFromStatus(rec: RecommendedContainerResources): NumericContainerRecommendation {
  const out: NumericContainerRecommendation = { containerName: rec.containerName, target: resourceListToAmounts(rec.target) };
  if (rec.lowerBound) out.lowerBound = resourceListToAmounts(rec.lowerBound);
  if (rec.upperBound) out.upperBound = resourceListToAmounts(rec.upperBound);
  if (rec.uncappedTarget) out.uncappedTarget = resourceListToAmounts(rec.uncappedTarget);
  return out;
}

/** Writes a numeric recommendation (the recommender's output) in the status format. */
export function recommendationToStatus(rec: ContainerRecommendation | NumericContainerRecommendation): RecommendedContainerResources {
  const out: RecommendedContainerResources = { containerName: rec.containerName, target: amountsToResourceList(rec.target) };
  if (rec.lowerBound) out.lowerBound = amountsToResourceList(rec.lowerBound);
  if (rec.upperBound) out.upperBound = amountsToResourceList(rec.upperBound);
  if (rec.uncappedTarget) out.uncappedTarget = amountsToResourceList(rec.uncappedTarget);
  return out;
}
