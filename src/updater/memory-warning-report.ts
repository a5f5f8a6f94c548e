/**
 * Tells the new early memory warnings (memory-warning-tracker.ts): a warning log line and a Warning
 * Event on the pod and on its VPA for a container (`MemoryHigh` above 75% of the limit,
 * `MemoryCritical` above 85%), on the VPA for a workload with several pods at once
 * (`WorkloadMemoryPressure`). Example message: `container app: working set 900.0Mi stayed above 85%
 * of its memory limit 1Gi for 2 min (88%): close to an OOM kill`. In dry-run mode only the logs and
 * metrics tell. A failed event write is logged, never retried (the warning shows in the metrics).
 */
import { formatMemory } from 'kube-basics/quantity';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { Logger } from '../observability/logger.ts';
import { MEMORY_WARNING_THRESHOLDS, type MemoryWarningThresholds } from '../policy/memory-warning-thresholds.ts';
import type { ContainerMemoryWarning, WorkloadMemoryWarning } from './memory-warnings.ts';
import type { NewMemoryWarnings } from './memory-warning-tracker.ts';
import type { UpdaterApi } from './updater-api.ts';
import { podEvent, vpaEvent } from './updater-events.ts';

/** Event reasons. */
export const MEMORY_EVENT_REASONS = { warning: 'MemoryHigh', critical: 'MemoryCritical', workload: 'WorkloadMemoryPressure' } as const;

const pct = (r: number) => `${Math.round(r * 100)}%`;

/** The sentence for a container's warning; `windowMs` is the pressure window the working set stayed above for. */
export function containerWarningMessage(w: ContainerMemoryWarning, windowMs: number, t: MemoryWarningThresholds = MEMORY_WARNING_THRESHOLDS): string {
  const share = w.level === 'critical' ? t.criticalRatio : t.warningRatio;
  const tail = w.level === 'critical' ? ': close to an OOM kill' : '';
  return `container ${w.container}: working set ${(w.workingSetBytes / 2 ** 20).toFixed(1)}Mi stayed above ${pct(share)} of its memory limit ${formatMemory(w.limitBytes)} for ${Math.round(windowMs / 60_000)} min (${pct(w.ratio)})${tail}`;
}

/** The sentence for a workload's flag. */
export function workloadWarningMessage(w: WorkloadMemoryWarning, t: MemoryWarningThresholds = MEMORY_WARNING_THRESHOLDS): string {
  return `${w.pods.length} pods of ${w.workload} above ${pct(t.warningRatio)} of their memory limit at once (${w.pods.join(', ')}): the workload's memory is too small, not one pod`;
}

/** Logs the new warnings and records their Events (not in dry-run). */
export async function reportMemoryWarnings(
  fresh: NewMemoryWarnings,
  deps: {
    api: UpdaterApi;
    logger: Logger;
    now: number;
    instance: string;
    windowMs: number;
    vpaOf: (namespace: string, name: string) => VerticalPodAutoscaler | undefined;
    podUid: (namespace: string, name: string) => string | undefined;
    dryRun?: boolean;
  },
): Promise<void> {
  const record = async (event: Parameters<UpdaterApi['recordEvent']>[0], log: Logger, reason: string) => {
    if (deps.dryRun) return;
    try {
      await deps.api.recordEvent(event);
    } catch (err) {
      log.warn({ err, reason }, 'could not record the event');
    }
  };
  for (const w of fresh.containers) {
    const reason = MEMORY_EVENT_REASONS[w.level];
    const message = containerWarningMessage(w, deps.windowMs);
    const log = deps.logger.child({ pod: `${w.namespace}/${w.pod}`, container: w.container, vpa: `${w.namespace}/${w.vpa}` });
    log.warn({ reason, level: w.level, ratio: Number(w.ratio.toFixed(3)) }, message);
    const uid = deps.podUid(w.namespace, w.pod);
    await record(podEvent({ namespace: w.namespace, name: w.pod, ...(uid ? { uid } : {}) }, reason, 'Warning', message, deps.now, deps.instance), log, reason);
    const vpa = deps.vpaOf(w.namespace, w.vpa);
    if (vpa) await record(vpaEvent(vpa, reason, 'Warning', `pod ${w.pod}: ${message}`, deps.now, deps.instance), log, reason);
  }
  for (const w of fresh.workloads) {
    const reason = MEMORY_EVENT_REASONS.workload;
    const message = workloadWarningMessage(w);
    const log = deps.logger.child({ vpa: `${w.namespace}/${w.vpa}`, workload: w.workload });
    log.warn({ reason, pods: w.pods.length }, message);
    const vpa = deps.vpaOf(w.namespace, w.vpa);
    if (vpa) await record(vpaEvent(vpa, reason, 'Warning', message, deps.now, deps.instance), log, reason);
  }
}

/** One line per warning for `tailor plan`, e.g. `MemoryHigh shop/web-1: container app: working set ...`. */
export function formatMemoryWarnings(
  w: { containers: readonly ContainerMemoryWarning[]; workloads: readonly WorkloadMemoryWarning[] },
  windowMs: number,
): string[] {
  return [
    ...w.containers.map((c) => `${MEMORY_EVENT_REASONS[c.level]} ${c.namespace}/${c.pod}: ${containerWarningMessage(c, windowMs)}`),
    ...w.workloads.map((x) => `${MEMORY_EVENT_REASONS.workload} ${x.namespace}/${x.vpa}: ${workloadWarningMessage(x)}`),
  ];
}
