/**
 * Upstream 1.8's per-VPA memory settings of a container (its container policy, else the `"*"` one,
 * as upstream's `GetContainerResourcePolicy`), as numbers the recommender's models take:
 * `oomBumpUpRatio: "1.5"` -> 1.5, `oomMinBumpUp: 100Mi` -> 104857600 bytes,
 * `memoryAggregationIntervalSeconds: 3600` -> 3600000 ms, `memoryAggregationIntervalCount: 24` -> 24.
 * A field not set is absent: the recommender's own value applies. Quantities are assumed valid
 * (`validateVpa` first); one that does not parse throws QuantityError. Pure.
 */
import { parseMemory, parseQuantity } from 'kube-basics/quantity';
import type { PodResourcePolicy } from '../api/vpa.ts';
import { containerPolicyOf } from './container-policy.ts';

/** The settings a VPA sets for one container (field names as the model's options). */
export interface PerVpaMemorySettings {
  oomBumpUpRatio?: number;
  oomMinBumpUpBytes?: number;
  memoryAggregationIntervalMs?: number;
  memoryAggregationIntervalCount?: number;
}

/** The settings for `containerName`; `{}` when the VPA sets none. */
export function perVpaMemorySettings(resourcePolicy: PodResourcePolicy | undefined, containerName: string): PerVpaMemorySettings {
  const policy = containerPolicyOf(resourcePolicy, containerName);
  const out: PerVpaMemorySettings = {};
  if (!policy) return out;
  if (policy.oomBumpUpRatio !== undefined) out.oomBumpUpRatio = parseQuantity(policy.oomBumpUpRatio, 3) / 1000;
  if (policy.oomMinBumpUp !== undefined) out.oomMinBumpUpBytes = parseMemory(policy.oomMinBumpUp);
  if (policy.memoryAggregationIntervalSeconds !== undefined) out.memoryAggregationIntervalMs = policy.memoryAggregationIntervalSeconds * 1000;
  if (policy.memoryAggregationIntervalCount !== undefined) out.memoryAggregationIntervalCount = policy.memoryAggregationIntervalCount;
  return out;
}
