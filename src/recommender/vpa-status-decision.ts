/**
 * What the recommender writes on one VPA this cycle: its recommendation and conditions, decided
 * from what the cycle found. Nothing already had is lost: when the VPA is malformed, its target is
 * missing, Prometheus is down or no container has a sample, the previous recommendation stays and
 * a condition says why.
 */
import type { RecommendedPodResources, VerticalPodAutoscalerStatus } from '../api/vpa.ts';
import { mergeConditions, sameConditions, type DesiredCondition } from './vpa-conditions.ts';
import { sameRecommendation, type VpaRecommendation } from './vpa-recommendation.ts';

/** Why a VPA cannot be served (shown as ConfigUnsupported). */
export interface VpaProblem {
  /** `InvalidSpec`, `TargetNotFound`, `TargetUnsupported`, `TargetUnreadable` (API error), `MultipleVPAs`. */
  reason: string;
  message: string;
}

/** What a cycle found about one VPA. */
export interface VpaFindings {
  previous: VerticalPodAutoscalerStatus | undefined;
  problem?: VpaProblem;
  /** Pods of the target that exist now. */
  podsMatched: number;
  /** The history bootstrap has not completed yet (Prometheus down or still reading). */
  fetchingHistory: boolean;
  /** Set when this cycle's usage could not be read (Prometheus down): said on RecommendationProvided. */
  usageProblem?: string;
  /** Set when the history could be estimated. */
  computed?: VpaRecommendation;
  /** Settings of the VPA the strategy does not apply (shown as ConfigIgnored). */
  ignored?: string;
}

export interface VpaStatusDecision {
  status: { recommendation?: RecommendedPodResources; conditions: NonNullable<VerticalPodAutoscalerStatus['conditions']> };
  /** False when the status would be written unchanged (no write needed). */
  changed: boolean;
}

/** The status to write at `now`. */
export function decideVpaStatus(f: VpaFindings, now: number): VpaStatusDecision {
  const fresh = f.problem === undefined && (f.computed?.recommendation.containerRecommendations?.length ?? 0) > 0;
  const recommendation = fresh ? f.computed!.recommendation : f.previous?.recommendation;
  const count = recommendation?.containerRecommendations?.length ?? 0;
  const desired: DesiredCondition[] = [];
  const usageNote = f.usageProblem === undefined ? '' : `; usage not updated this cycle: ${f.usageProblem}`;
  if (count > 0) {
    const message = fresh ? `recommendation for ${count} container(s)` : 'the last recommendation is kept; see the other conditions for why it was not renewed';
    desired.push({ type: 'RecommendationProvided', status: 'True', reason: fresh ? 'Estimated' : 'Kept', message: message + usageNote });
  } else {
    desired.push({
      type: 'RecommendationProvided',
      status: 'False',
      reason: f.problem ? f.problem.reason : 'NoSamples',
      message: (f.problem ? f.problem.message : "no usage samples of the target's containers yet") + usageNote,
    });
  }
  if (f.problem === undefined && f.podsMatched === 0)
    desired.push({ type: 'NoPodsMatched', status: 'True', reason: 'NoPodsMatched', message: "no running pod matches the target's selector" });
  if (f.problem) desired.push({ type: 'ConfigUnsupported', status: 'True', reason: f.problem.reason, message: f.problem.message });
  if (f.ignored !== undefined) desired.push({ type: 'ConfigIgnored', status: 'True', reason: 'NotAppliedByStrategy', message: f.ignored });
  if (fresh && f.computed!.lowConfidence.length > 0) desired.push(lowConfidence(f.computed!));
  if (f.fetchingHistory)
    desired.push({ type: 'FetchingHistory', status: 'True', reason: 'Bootstrapping', message: 'reading the usage history from Prometheus' });
  const conditions = mergeConditions(f.previous?.conditions, desired, now);
  const changed = !sameRecommendation(recommendation, f.previous?.recommendation) || !sameConditions(conditions, f.previous?.conditions);
  const status: VpaStatusDecision['status'] = { conditions };
  if (recommendation) status.recommendation = recommendation;
  return { status, changed };
}

/**
 * LowConfidence: the containers with less than a day of history; reason OomKillsOnly when some of
 * them are recommended from OOM kills alone (no usage sample yet: memory from the kills' bump, CPU
 * at its floor; decision 0298), ShortHistory otherwise.
 */
function lowConfidence(computed: VpaRecommendation): DesiredCondition {
  const oomOnly = computed.oomKillsOnly ?? [];
  const short = computed.lowConfidence.filter((name) => !oomOnly.includes(name));
  const parts: string[] = [];
  if (oomOnly.length > 0)
    parts.push(`no usage sample yet, recommended from OOM kills only (memory from the kills, CPU at its floor) for: ${oomOnly.join(', ')}`);
  if (short.length > 0) parts.push(`less than a day of history for: ${short.join(', ')}`);
  return { type: 'LowConfidence', status: 'True', reason: oomOnly.length > 0 ? 'OomKillsOnly' : 'ShortHistory', message: parts.join('; ') };
}
