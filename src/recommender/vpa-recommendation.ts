/**
 * A VPA's `status.recommendation` from its containers' histories: the upstream estimator per
 * container (per-pod floors split across the containers that have samples), rounded up by
 * `--round-cpu-millicores` / `--round-memory-bytes` (status-rounding.ts), then the VPA's
 * resource policy (`capRecommendation`: mode Off drops a container, min/maxAllowed clamp target
 * and bounds, `uncappedTarget` keeps the estimate). Containers sorted by name, so the same history
 * gives the same object and an unchanged recommendation is not written again.
 *
 * Worked number: a steady 0.5 core -> target 587m (see estimator.ts); with maxAllowed cpu 500m the
 * status says target 500m, uncappedTarget 587m.
 */
import type { PodResourcePolicy, RecommendedContainerResources, RecommendedPodResources } from '../api/vpa.ts';
import { recommendationToStatus } from '../api/vpa-quantities.ts';
import { capRecommendation } from '../policy/cap-recommendation.ts';
import { historyConfidence } from '../model/confidence.ts';
import { estimatePodContainers } from '../model/estimator.ts';
import type { AggregateContainerState } from '../model/aggregate-container-state.ts';
import type { ResourceEstimate } from '../model/types.ts';
import { roundEstimate, type StatusRounding } from './status-rounding.ts';

/** The recommendation and the containers whose history is shorter than a day. */
export interface VpaRecommendation {
  recommendation: RecommendedPodResources;
  /** Containers with a recommendation from less than a day of history (confidence < 1). */
  lowConfidence: string[];
  /**
   * Of those, the containers recommended from OOM kills alone: no usage sample yet (killed before
   * any scrape: decision 0298). Absent when none.
   */
  oomKillsOnly?: string[];
}

/** The capped recommendation of a VPA from its containers' states (by container name). */
export function vpaRecommendation(
  states: ReadonlyMap<string, AggregateContainerState>,
  policy: PodResourcePolicy | undefined,
  rounding?: StatusRounding,
): VpaRecommendation {
  return cappedRecommendation(estimatePodContainers(states), states, policy, rounding);
}

/**
 * The capped recommendation from per-container estimates (upstream's or a strategy's: see
 * strategy-estimates.ts); confidence comes from the upstream states fed the same samples. Rounded
 * up first, capped after, as upstream: a target stays within [minAllowed, maxAllowed] exactly.
 */
export function cappedRecommendation(
  estimates: ReadonlyMap<string, ResourceEstimate>,
  states: ReadonlyMap<string, AggregateContainerState>,
  policy: PodResourcePolicy | undefined,
  rounding?: StatusRounding,
): VpaRecommendation {
  const containers: RecommendedContainerResources[] = [];
  const lowConfidence: string[] = [];
  const oomKillsOnly: string[] = [];
  for (const name of [...estimates.keys()].sort()) {
    const e = roundEstimate(estimates.get(name)!, rounding);
    const { recommendation } = capRecommendation(
      { containerName: name, target: e.target, lowerBound: e.lowerBound, upperBound: e.upperBound, uncappedTarget: e.target },
      policy,
    );
    if (!recommendation) continue;
    containers.push(recommendationToStatus(recommendation));
    const state = states.get(name);
    if (!state || historyConfidence(state) < 1) lowConfidence.push(name);
    if (state && state.totalSamplesCount === 0 && state.oomKillCount > 0) oomKillsOnly.push(name);
  }
  return { recommendation: { containerRecommendations: containers }, lowConfidence, ...(oomKillsOnly.length > 0 ? { oomKillsOnly } : {}) };
}

/** True when two recommendations are the same (quantity strings compared). */
export function sameRecommendation(a: RecommendedPodResources | undefined, b: RecommendedPodResources | undefined): boolean {
  return JSON.stringify(a?.containerRecommendations ?? []) === JSON.stringify(b?.containerRecommendations ?? []);
}
