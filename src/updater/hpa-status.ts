/**
 * Tells people when an HPA keeps the updater off a resource: the VPA's `HpaConflict` condition
 * (hpa-condition.ts), written by merge patch on `/status` pinned to the VPA's resourceVersion with
 * field manager `tailor-updater`, and a Normal event `HpaConflict` on the VPA when the condition
 * is set or its message changes. Only when something changed, so a steady conflict costs no
 * writes. A 409 (the recommender wrote meanwhile) or any other failure is logged and retried next
 * loop, from the objects. Nothing is written in dry-run mode. Up to 16 writes at once.
 */
import pLimit from 'p-limit';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { ResourceName } from '../model/types.ts';
import { classifyApiError } from '../kube/errors.ts';
import type { Logger } from '../observability/logger.ts';
import { HPA_CONFLICT_CONDITION, hpaConditionUpdate, type HpaConflict } from './hpa-condition.ts';
import type { WorkloadGroup } from './updater-plan.ts';
import type { UpdaterApi } from './updater-api.ts';
import { vpaEvent } from './updater-events.ts';

/**
 * The conflict of one group, when the updater leaves resources to an HPA. VPAs in mode Off or
 * Initial get none: the updater does not touch their pods anyway.
 */
export function groupConflict(group: WorkloadGroup, respectHpa: boolean): HpaConflict | undefined {
  if (!respectHpa || !group.hpaResources || group.hpaResources.length === 0) return undefined;
  const mode = group.vpa.spec.updatePolicy?.updateMode ?? 'Recreate';
  if (mode === 'Off' || mode === 'Initial') return undefined;
  return { workload: group.workload, hpaNames: group.hpaNames ?? [], resources: [...group.hpaResources].sort() };
}

/** How many VPAs leave each resource to an HPA (for `tailor_updater_hpa_excluded_resources`). */
export function hpaExclusionCounts(groups: readonly WorkloadGroup[], respectHpa: boolean): Record<ResourceName, number> {
  const counts: Record<ResourceName, number> = { cpu: 0, memory: 0 };
  for (const g of groups) for (const r of groupConflict(g, respectHpa)?.resources ?? []) counts[r] += 1;
  return counts;
}

/** Writes the changed HpaConflict conditions (and events) of the groups' VPAs; returns the number written. */
export async function reportHpaConflicts(
  groups: readonly WorkloadGroup[],
  deps: { api: UpdaterApi; logger: Logger; now: number; respectHpa: boolean; fieldManager: string; instance: string; dryRun?: boolean },
): Promise<number> {
  const patch = deps.api.patchVpaConditions?.bind(deps.api);
  if (!patch || deps.dryRun) return 0;
  let written = 0;
  const limit = pLimit(16);
  await Promise.all(
    groups.map((group) =>
      limit(async () => {
        const vpa: VerticalPodAutoscaler = group.vpa;
        const update = hpaConditionUpdate(vpa, groupConflict(group, deps.respectHpa), deps.now);
        if (!update) return;
        const ns = vpa.metadata.namespace ?? 'default';
        const log = deps.logger.child({ vpa: `${ns}/${vpa.metadata.name}` });
        try {
          await patch(ns, vpa.metadata.name, vpa.metadata.resourceVersion, update.conditions, deps.fieldManager);
          written++;
        } catch (err) {
          const c = classifyApiError(err);
          if (c.code === 409) log.debug({ err }, 'the VPA changed since it was read; its HpaConflict condition is written next loop');
          else log.warn({ err }, 'could not write the HpaConflict condition; retried next loop');
          return;
        }
        if (update.condition) {
          log.info({ condition: HPA_CONFLICT_CONDITION }, update.condition.message ?? '');
          try {
            await deps.api.recordEvent(vpaEvent(vpa, HPA_CONFLICT_CONDITION, 'Normal', update.condition.message ?? '', deps.now, deps.instance));
          } catch (err) {
            log.warn({ err, reason: HPA_CONFLICT_CONDITION }, 'could not record the event');
          }
        } else log.info({ condition: HPA_CONFLICT_CONDITION }, 'no HPA conflict any more; condition removed');
      }),
    ),
  );
  return written;
}
