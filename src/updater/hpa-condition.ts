/**
 * The updater's own condition on a VPA: `HpaConflict`, present (status True) while an HPA scales
 * the VPA's workload on cpu or memory utilisation and the updater therefore leaves that resource
 * alone (option respectHpa); removed when the conflict ends. The recommender owns five other types
 * (vpa-conditions.ts) and keeps conditions of other types as they are, so the two never write the
 * same entry. Pure: the VPA, the conflict and the time in, the new condition list (or nothing to
 * write) out. Example message: `HorizontalPodAutoscaler web scales Deployment/shop/web on cpu
 * utilisation; the updater leaves cpu to it`.
 */
import { formatRfc3339 } from '../api/rfc3339.ts';
import type { VerticalPodAutoscaler, VpaCondition } from '../api/vpa.ts';
import type { ResourceName } from '../model/types.ts';

export const HPA_CONFLICT_CONDITION = 'HpaConflict';
export const HPA_CONFLICT_REASON = 'ResourcesLeftToHpa';

/** What the HPA scales on, for one workload. */
export interface HpaConflict {
  workload: string;
  hpaNames: readonly string[];
  resources: readonly ResourceName[];
}

/** A status write: the whole new conditions list, and whether the conflict is new or changed (an event is due). */
export interface HpaConditionUpdate {
  conditions: VpaCondition[];
  /** The condition as written, when it is set (not when removed). */
  condition?: VpaCondition;
}

/** The condition's message. */
export function hpaConflictMessage(conflict: HpaConflict): string {
  const hpas = conflict.hpaNames.length > 0 ? conflict.hpaNames.join(', ') : '(unnamed)';
  const resources = conflict.resources.join(' and ');
  return `HorizontalPodAutoscaler ${hpas} scales ${conflict.workload} on ${resources} utilisation; the updater leaves ${resources} to it`;
}

/**
 * The new conditions when they must change, else undefined. `conflict` undefined (or without
 * resources) means none: an existing HpaConflict condition is removed. A condition that says the
 * same keeps its `lastTransitionTime`; other types are kept in place.
 */
export function hpaConditionUpdate(vpa: VerticalPodAutoscaler, conflict: HpaConflict | undefined, now: number): HpaConditionUpdate | undefined {
  const previous = vpa.status?.conditions ?? [];
  const old = previous.find((c) => c.type === HPA_CONFLICT_CONDITION);
  const others = previous.filter((c) => c.type !== HPA_CONFLICT_CONDITION);
  if (!conflict || conflict.resources.length === 0) return old ? { conditions: others } : undefined;
  const message = hpaConflictMessage(conflict);
  if (old && old.status === 'True' && old.reason === HPA_CONFLICT_REASON && old.message === message) return undefined;
  const condition: VpaCondition = {
    type: HPA_CONFLICT_CONDITION,
    status: 'True',
    lastTransitionTime: old?.status === 'True' && old.lastTransitionTime ? old.lastTransitionTime : formatRfc3339(now),
    reason: HPA_CONFLICT_REASON,
    message,
  };
  return { conditions: [...others, condition], condition };
}
