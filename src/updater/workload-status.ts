/**
 * Writes the updater's per-workload conditions (workload-conditions.ts) on each VPA it handles:
 * merge patch on `/status` pinned to the VPA's resourceVersion with field manager
 * `tailor-updater`, only when something changed, and an event on the VPA (reason = the condition
 * type) when a condition is set or its message changes. A 409 (the recommender or the HpaConflict
 * write came first) or any other failure is logged and retried next loop, from the objects.
 * Nothing is written in dry-run mode; the counts are returned either way (for the metric).
 */
import pLimit from 'p-limit';
import { classifyApiError } from '../kube/errors.ts';
import type { Logger } from '../observability/logger.ts';
import type { PodDecision } from './decision.ts';
import type { WorkloadGroup } from './updater-plan.ts';
import type { UpdaterApi } from './updater-api.ts';
import { vpaEvent } from './updater-events.ts';
import { desiredWorkloadConditions, WORKLOAD_CONDITION_TYPES, workloadConditionsUpdate, type WorkloadConditionType } from './workload-conditions.ts';

/** What the pass found and wrote. */
export interface WorkloadStatusReport {
  /** VPAs with each condition set after this loop. */
  holding: Record<WorkloadConditionType, number>;
  written: number;
}

/** Sets and removes the conditions of the groups' VPAs. */
export async function reportWorkloadConditions(
  groups: readonly WorkloadGroup[],
  decisions: readonly PodDecision[],
  deps: { api: UpdaterApi; logger: Logger; now: number; fieldManager: string; instance: string; dryRun?: boolean },
): Promise<WorkloadStatusReport> {
  const holding = Object.fromEntries(WORKLOAD_CONDITION_TYPES.map((t) => [t, 0])) as Record<WorkloadConditionType, number>;
  const byWorkload = new Map<string, PodDecision[]>();
  for (const d of decisions) byWorkload.set(d.workload, [...(byWorkload.get(d.workload) ?? []), d]);
  const patch = deps.api.patchVpaConditions?.bind(deps.api);
  let written = 0;
  const limit = pLimit(16);
  await Promise.all(
    groups.map((group) =>
      limit(async () => {
        const vpa = group.vpa;
        const desired = desiredWorkloadConditions(vpa, byWorkload.get(group.workload) ?? [], deps.now);
        for (const d of desired) holding[d.type] += 1;
        const update = workloadConditionsUpdate(vpa, desired, deps.now);
        if (!update || !patch || deps.dryRun) return;
        const ns = vpa.metadata.namespace ?? 'default';
        const log = deps.logger.child({ vpa: `${ns}/${vpa.metadata.name}` });
        try {
          await patch(ns, vpa.metadata.name, vpa.metadata.resourceVersion, update.conditions, deps.fieldManager);
          written++;
        } catch (err) {
          if (classifyApiError(err).code === 409) log.debug({ err }, 'the VPA changed since it was read; its conditions are written next loop');
          else log.warn({ err }, 'could not write the VPA conditions; retried next loop');
          return;
        }
        for (const type of update.removed) log.info({ condition: type }, 'condition removed: it no longer holds');
        for (const { condition, eventType } of update.set) {
          const message = condition.message ?? '';
          if (eventType === 'Warning') log.warn({ condition: condition.type }, message);
          else log.info({ condition: condition.type }, message);
          try {
            await deps.api.recordEvent(vpaEvent(vpa, condition.type, eventType, message, deps.now, deps.instance));
          } catch (err) {
            log.warn({ err, reason: condition.type }, 'could not record the event');
          }
        }
      }),
    ),
  );
  return { holding, written };
}
