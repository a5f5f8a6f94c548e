/**
 * What the planner (decide-pod.ts) is given: one pod with its VPA and what is known about it, the
 * context every decision of a loop shares, and the recommendation the pod is planned from.
 */
import type { V1LimitRange, V1Pod } from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import { recommendationFromStatus, type NumericContainerRecommendation } from '../api/vpa-quantities.ts';
import type { ResourceName } from '../model/types.ts';
import type { UpdaterOptions } from '../policy/update-thresholds.ts';
import type { PodUsage } from './container-usage.ts';
import type { FutureTimeBound } from './future-times.ts';
import type { ResizeRefusal } from './resize-refusal.ts';
import type { ServerCapabilities } from './server-capabilities.ts';

/** One pod and what is known about it. */
export interface PodPlanInput {
  pod: V1Pod;
  vpa: VerticalPodAutoscaler;
  /** The workload key the pod belongs to (budgets are per workload), e.g. `Deployment/shop/web`. */
  workload: string;
  /** The recommendation; default: the VPA's `status.recommendation`. */
  recommendation?: readonly NumericContainerRecommendation[];
  limitRanges?: readonly V1LimitRange[];
  /** Recent usage by container (Prometheus). */
  usage?: PodUsage;
  /** Resources an HPA scales the workload on (cpu and/or memory utilisation). */
  hpaResources?: readonly ResourceName[];
}

/** What every decision of a loop shares. */
export interface PlannerContext {
  options: UpdaterOptions;
  capabilities: ServerCapabilities;
  /** ms since the epoch. */
  now: number;
  fieldManager?: string;
  /**
   * For a time on the pod that lies after `now` (another clock runs ahead): when this replica first
   * saw it (future-times.ts). Default: `now`, so a skewed time never counts as in the future.
   */
  futureTime?: FutureTimeBound;
  /** A resize of the pod the API server refused for its node's capacity (1.36+; resize-refusal.ts), if one still stands. */
  resizeRefusal?: (pod: V1Pod) => ResizeRefusal | undefined;
}

/** The recommendation the pod is planned from: the input's, else the VPA status's. Throws QuantityError. */
export function recommendationsOf(input: PodPlanInput): NumericContainerRecommendation[] {
  return input.recommendation ? [...input.recommendation] : (input.vpa.status?.recommendation?.containerRecommendations ?? []).map(recommendationFromStatus);
}
