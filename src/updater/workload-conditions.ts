/**
 * The updater's per-workload conditions on a VPA, from its annotations and the loop's plan:
 * - `AnnotationsInvalid` (True, reason `BadAnnotation`, a Warning event): a `tailor.dev/`
 *   annotation has a bad value or an unknown key; the message names each one and what is wrong,
 *   e.g. `tailor.dev/cooldown: "5 minutes": not a duration (write e.g. 90s, 5m, 1h30m); the updater
 *   leaves this workload's pods alone until it is fixed`;
 * - `WaitingForDisruptionWindow` (True, reason `OutsideDisruptionWindow`, a Normal event):
 *   disruptive actions of the loop's plan wait for the workload's disruption window, e.g. `2
 *   pod(s) wait for an eviction or restart: outside the disruption window * 2-4 * * 1-5
 *   (Europe/Berlin); it opens next at 2026-06-02T00:00:00.000Z` (a pod whose part that restarts
 *   nothing goes on in place now counts: its restart waits).
 * Each is removed when it no longer holds. A condition that says the same keeps its
 * `lastTransitionTime`; conditions of other types (the recommender's, HpaConflict) are kept. Pure.
 */
import { formatRfc3339 } from '../api/rfc3339.ts';
import type { VerticalPodAutoscaler, VpaCondition } from '../api/vpa.ts';
import { describeProblem } from '../policy/annotations/annotation-key.ts';
import { readWorkloadAnnotations } from '../policy/annotations/workload-annotations.ts';
import { windowState } from '../policy/disruption-window.ts';
import type { PodDecision } from './decision.ts';
import { windowMessage } from './updater-plan.ts';

export const ANNOTATIONS_INVALID_CONDITION = 'AnnotationsInvalid';
export const WINDOW_WAIT_CONDITION = 'WaitingForDisruptionWindow';
/** The condition types this file owns, in the order they are written. */
export const WORKLOAD_CONDITION_TYPES = [ANNOTATIONS_INVALID_CONDITION, WINDOW_WAIT_CONDITION] as const;
export type WorkloadConditionType = (typeof WORKLOAD_CONDITION_TYPES)[number];

/** A condition that should be set, with the type of the event that announces it. */
export interface DesiredCondition {
  type: WorkloadConditionType;
  reason: string;
  message: string;
  eventType: 'Normal' | 'Warning';
}

/** The conditions that hold for a VPA given this loop's decisions for its pods (absent types are removed). */
export function desiredWorkloadConditions(vpa: VerticalPodAutoscaler, decisions: readonly PodDecision[], now: number): DesiredCondition[] {
  const { settings, problems } = readWorkloadAnnotations(vpa.metadata.annotations);
  const out: DesiredCondition[] = [];
  if (problems.length > 0) {
    out.push({
      type: ANNOTATIONS_INVALID_CONDITION,
      reason: 'BadAnnotation',
      eventType: 'Warning',
      message: `${problems.map(describeProblem).join('; ')}; the updater leaves this workload's pods alone until it is fixed`,
    });
  }
  const waiting = decisions.filter((d) => d.reason === 'DisruptionWindow' || d.waiting?.reason === 'DisruptionWindow').length;
  if (waiting > 0 && settings.windows) {
    out.push({
      type: WINDOW_WAIT_CONDITION,
      reason: 'OutsideDisruptionWindow',
      eventType: 'Normal',
      message: `${waiting} pod(s) wait for an eviction or restart: ${windowMessage(settings.windows, windowState(settings.windows, now))}`,
    });
  }
  return out;
}

/** A status write: the whole new list, and the conditions newly set or changed (an event is due for each). */
export interface WorkloadConditionsUpdate {
  conditions: VpaCondition[];
  set: { condition: VpaCondition; eventType: 'Normal' | 'Warning' }[];
  removed: WorkloadConditionType[];
}

/** The new conditions list when it must change, else undefined. */
export function workloadConditionsUpdate(vpa: VerticalPodAutoscaler, desired: readonly DesiredCondition[], now: number): WorkloadConditionsUpdate | undefined {
  const previous = vpa.status?.conditions ?? [];
  const owned = new Set<string>(WORKLOAD_CONDITION_TYPES);
  const conditions = previous.filter((c) => !owned.has(c.type));
  const set: WorkloadConditionsUpdate['set'] = [];
  let changed = false;
  for (const type of WORKLOAD_CONDITION_TYPES) {
    const old = previous.find((c) => c.type === type);
    const want = desired.find((d) => d.type === type);
    if (!want) {
      if (old) changed = true;
      continue;
    }
    const same = old && old.status === 'True' && old.reason === want.reason && old.message === want.message;
    const condition: VpaCondition = {
      type,
      status: 'True',
      lastTransitionTime: old?.status === 'True' && old.lastTransitionTime ? old.lastTransitionTime : formatRfc3339(now),
      reason: want.reason,
      message: want.message,
    };
    conditions.push(same ? old : condition);
    if (!same) {
      changed = true;
      set.push({ condition, eventType: want.eventType });
    }
  }
  if (!changed) return undefined;
  const removed = WORKLOAD_CONDITION_TYPES.filter((t) => previous.some((c) => c.type === t) && !desired.some((d) => d.type === t));
  return { conditions, set, removed };
}
