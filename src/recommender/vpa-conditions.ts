/**
 * The recommender's conditions on a VPA. It owns six types: `RecommendationProvided` (always
 * present, True or False), and `NoPodsMatched`, `ConfigUnsupported`, `LowConfidence`,
 * `FetchingHistory` and Tailor's `ConfigIgnored` (settings the strategy does not apply:
 * ignored-settings.ts), present only while True. Conditions of other types (another component's) are
 * kept as they are. A condition whose status did not change keeps its `lastTransitionTime`.
 */
import { formatRfc3339 } from '../api/rfc3339.ts';
import type { VpaCondition } from '../api/vpa.ts';

export const RECOMMENDER_CONDITION_TYPES = [
  'RecommendationProvided',
  'NoPodsMatched',
  'ConfigUnsupported',
  'ConfigIgnored',
  'LowConfidence',
  'FetchingHistory',
] as const;
export type RecommenderConditionType = (typeof RECOMMENDER_CONDITION_TYPES)[number];

/** A condition the recommender wants, without its transition time. */
export interface DesiredCondition {
  type: RecommenderConditionType;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/**
 * The new condition list: other components' conditions unchanged, then the desired ones in
 * {@link RECOMMENDER_CONDITION_TYPES} order; `lastTransitionTime` is `now` for a new condition or
 * a changed status, else the previous one.
 */
export function mergeConditions(previous: readonly VpaCondition[] | undefined, desired: readonly DesiredCondition[], now: number): VpaCondition[] {
  const owned = new Set<string>(RECOMMENDER_CONDITION_TYPES);
  const old = new Map((previous ?? []).map((c) => [c.type, c]));
  const out: VpaCondition[] = (previous ?? []).filter((c) => !owned.has(c.type));
  for (const type of RECOMMENDER_CONDITION_TYPES) {
    const want = desired.find((d) => d.type === type);
    if (!want) continue;
    const before = old.get(type);
    const lastTransitionTime = before?.status === want.status && before.lastTransitionTime ? before.lastTransitionTime : formatRfc3339(now);
    out.push({ type, status: want.status, lastTransitionTime, reason: want.reason, message: want.message });
  }
  return out;
}

/** True when two condition lists say the same (times included). */
export function sameConditions(a: readonly VpaCondition[] | undefined, b: readonly VpaCondition[] | undefined): boolean {
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
}
