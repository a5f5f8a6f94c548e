/**
 * One container's recommendation as the `tailor_vpa_recommendation` gauge exports it: each bound
 * of the status written (target, lowerBound, upperBound, uncappedTarget) read back into numbers
 * (CPU millicores, memory bytes).
 */
import { resourceListToAmounts } from '../api/vpa-quantities.ts';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';

/** The bounds of a recommendation that are exported. */
export type RecommendationBound = 'target' | 'lowerBound' | 'upperBound' | 'uncappedTarget';

/** One container's recommendation of one VPA (CPU millicores and memory bytes, as the recommender's Resources). */
export interface RecommendationSeries {
  namespace: string;
  vpa: string;
  targetKind: string;
  targetName: string;
  container: string;
  bounds: Partial<Record<RecommendationBound, { cpu?: number; memory?: number }>>;
}

/** A container recommendation of a status, as quantities (`{ cpu: '250m' }`). */
type ContainerBounds = {
  containerName: string;
  target: Record<string, string | undefined>;
  lowerBound?: Record<string, string | undefined>;
  upperBound?: Record<string, string | undefined>;
  uncappedTarget?: Record<string, string | undefined>;
};

/** The series of container recommendation `c` of `vpa`. */
export function recommendationSeries(vpa: VerticalPodAutoscaler, c: ContainerBounds): RecommendationSeries {
  const amounts = (list: Record<string, string | undefined> | undefined) => (list ? resourceAmounts(list) : undefined);
  const bounds: RecommendationSeries['bounds'] = {};
  for (const bound of ['target', 'lowerBound', 'upperBound', 'uncappedTarget'] as const) {
    const a = amounts(c[bound]);
    if (a) bounds[bound] = a;
  }
  return {
    namespace: vpa.metadata.namespace ?? '',
    vpa: vpa.metadata.name,
    targetKind: vpa.spec.targetRef.kind,
    targetName: vpa.spec.targetRef.name,
    container: c.containerName,
    bounds,
  };
}

function resourceAmounts(list: Record<string, string | undefined>): { cpu?: number; memory?: number } {
  return resourceListToAmounts(list as { cpu?: string; memory?: string });
}
