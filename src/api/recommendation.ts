/**
 * A recommendation as numbers (CPU in millicores, memory in bytes): what a strategy estimates and
 * what the recommender publishes in a VPA's status.
 */
import type { Resources } from 'kube-basics/resources';

/** One container's estimate before policy: the figures a strategy produces. */
export interface ResourceEstimate {
  target: Resources;
  lowerBound: Resources;
  upperBound: Resources;
}

/** What the recommender publishes per container (the VPA status shape, as numbers). */
export interface ContainerRecommendation extends ResourceEstimate {
  containerName: string;
  /** The target before the VPA's policy (min/maxAllowed, LimitRange) capped it. */
  uncappedTarget: Resources;
}
