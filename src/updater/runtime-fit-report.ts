/**
 * Warns on the VPA when a container's memory resizePolicy does not fit its runtime
 * (src/policy/runtime-fit.ts, with the VPA's `tailor.dev/runtime` override): a Warning Event
 * `ResizePolicyMismatch` on the VPA and a warn log line, told once per VPA and message while this
 * process runs (a restart tells it again). Read from one running pod per workload (they share a
 * template). Not in dry-run mode (logged only).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from '../observability/logger.ts';
import { runtimeOverridesOf } from '../policy/runtime-annotation.ts';
import { runtimeFitWarnings } from '../policy/runtime-fit.ts';
import type { WorkloadGroup } from './updater-plan.ts';
import type { UpdaterApi } from './updater-api.ts';
import { vpaEvent } from './updater-events.ts';

export const RESIZE_POLICY_MISMATCH = 'ResizePolicyMismatch';

/** The misfits of one group (its first running pod's containers). */
export function groupRuntimeMisfits(group: WorkloadGroup): string[] {
  const pod: V1Pod | undefined = group.pods.find((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp);
  if (!pod) return [];
  const parsed = runtimeOverridesOf(group.vpa.metadata.annotations);
  return runtimeFitWarnings(pod.spec?.containers ?? [], parsed.ok ? parsed.overrides : undefined).map((w) => w.message);
}

/** Tells each misfit once. */
export class RuntimeFitReporter {
  private readonly told = new Set<string>();

  async report(groups: readonly WorkloadGroup[], deps: { api: UpdaterApi; logger: Logger; now: number; instance: string; dryRun?: boolean }): Promise<number> {
    let events = 0;
    for (const g of groups) {
      const vpaKey = `${g.vpa.metadata.namespace ?? 'default'}/${g.vpa.metadata.name}`;
      for (const message of groupRuntimeMisfits(g)) {
        const key = `${g.vpa.metadata.uid ?? vpaKey}|${message}`;
        if (this.told.has(key)) continue;
        this.told.add(key);
        const log = deps.logger.child({ vpa: vpaKey });
        log.warn({ reason: RESIZE_POLICY_MISMATCH }, message);
        if (deps.dryRun) continue;
        try {
          await deps.api.recordEvent(vpaEvent(g.vpa, RESIZE_POLICY_MISMATCH, 'Warning', message, deps.now, deps.instance));
          events++;
        } catch (err) {
          log.warn({ err, reason: RESIZE_POLICY_MISMATCH }, 'could not record the event');
        }
      }
    }
    return events;
  }
}
