/**
 * How the planner sees a pod with pod-level resources (`spec.resources`): as one subject named
 * POD_LEVEL in place of its containers, since the pod's cgroup is what the pod-level values size.
 * - its actual values are the pod-level spec values (a pending resize is followed through the
 *   pod's conditions, as for containers);
 * - its recommendation is the sum of the containers' (src/policy/pod-level-resources.ts): cpu
 *   targets 200m + 50m -> 250m, with lowerBound and upperBound summed the same way;
 * - its usage is the sum of the containers' (summed peaks are at least the pod's peak, so the
 *   memory floor errs on the safe side; the minima likewise at least the pod's minimum);
 * - an OOM kill of any of its containers counts as its own.
 * Pure.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { PodResourcePolicy } from '../api/vpa.ts';
import type { NumericContainerRecommendation } from '../api/vpa-quantities.ts';
import { readResourceValues, type ContainerResourceValues } from '../policy/container-values.ts';
import { podLevelRecommendation, POD_LEVEL, sharingContainers } from '../policy/pod-level-resources.ts';
import type { ContainerUsage, PodUsage } from './container-usage.ts';

/** The pod seen as one subject. */
export interface PodLevelView {
  actual: Map<string, ContainerResourceValues>;
  recommendations: NumericContainerRecommendation[];
  usage: PodUsage | undefined;
}

/** Sums the containers' usage; a field missing for any container is missing in the sum. */
function summedUsage(usage: PodUsage | undefined, names: readonly string[]): ContainerUsage | undefined {
  if (!usage) return undefined;
  const each = names.map((n) => usage[n]);
  const sum = (field: 'memoryPeakBytes' | 'memoryWorkingSetMinBytes'): number | undefined =>
    each.every((u) => u?.[field] !== undefined) ? each.reduce((s, u) => s + u![field]!, 0) : undefined;
  const windows = each.map((u) => u?.memoryWindowMs);
  const out: ContainerUsage = {};
  const peak = sum('memoryPeakBytes');
  const min = sum('memoryWorkingSetMinBytes');
  if (peak !== undefined) out.memoryPeakBytes = peak;
  if (min !== undefined) out.memoryWorkingSetMinBytes = min;
  if (windows.every((w) => w !== undefined)) out.memoryWindowMs = Math.min(...(windows as number[]));
  return out;
}

/**
 * The pod as one subject, or why it cannot be seen so (a container whose share is unknown).
 * Throws QuantityError on a malformed quantity.
 */
export function podLevelView(
  pod: V1Pod,
  recommendations: readonly NumericContainerRecommendation[],
  resourcePolicy: PodResourcePolicy | undefined,
  usage: PodUsage | undefined,
): { ok: true; view: PodLevelView } | { ok: false; message: string } {
  const summed = podLevelRecommendation(pod, recommendations, resourcePolicy);
  if (!summed.ok) return summed;
  const names = sharingContainers(pod).map((c) => c.name);
  return {
    ok: true,
    view: {
      actual: new Map([[POD_LEVEL, readResourceValues(pod.spec?.resources)]]),
      recommendations: [summed.recommendation],
      usage: { [POD_LEVEL]: summedUsage(usage, names) },
    },
  };
}
