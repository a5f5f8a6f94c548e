/**
 * The early memory warnings' thresholds, shared by the Prometheus alerting rules
 * (src/dashboard/memory-alert-rules.ts, shipped under manifests/monitoring/) and Tailor's own
 * Events and metrics (src/updater/memory-warnings.ts), so both warn at the same points. They sit
 * below the memory pressure guard (90% for 2 min, update-thresholds.ts), which acts; these only tell.
 * Example, limit 1 GiB: a working set that stays above 768 MiB warns, above 870.4 MiB escalates,
 * and two pods of one Deployment above 768 MiB at once flag the workload.
 */

/** A container's warning level: none, `warning` (above 75% of the limit) or `critical` (above 85%). */
export type MemoryWarningLevel = 'warning' | 'critical';

/** The thresholds. */
export interface MemoryWarningThresholds {
  /** Working set above this share of the memory limit warns (0.75). */
  warningRatio: number;
  /** ... above this share escalates (0.85). */
  criticalRatio: number;
  /** A workload with at least this many pods at a warning level at once is flagged (2). */
  workloadPods: number;
  /** How long the alerting rules wait before a warning fires (Prometheus duration). */
  warningFor: string;
  /** ... before the escalation fires. */
  criticalFor: string;
  /** ... before the workload flag fires. */
  workloadFor: string;
}

export const MEMORY_WARNING_THRESHOLDS: Readonly<MemoryWarningThresholds> = Object.freeze({
  warningRatio: 0.75,
  criticalRatio: 0.85,
  workloadPods: 2,
  warningFor: '5m',
  criticalFor: '2m',
  workloadFor: '5m',
});

/** The level of a working set against a limit (bytes); undefined below the warning share or without a limit. */
export function memoryWarningLevel(
  workingSetBytes: number | undefined,
  limitBytes: number | undefined,
  t: Pick<MemoryWarningThresholds, 'warningRatio' | 'criticalRatio'> = MEMORY_WARNING_THRESHOLDS,
): MemoryWarningLevel | undefined {
  if (workingSetBytes === undefined || limitBytes === undefined || !(limitBytes > 0)) return undefined;
  const ratio = workingSetBytes / limitBytes;
  if (ratio > t.criticalRatio) return 'critical';
  if (ratio > t.warningRatio) return 'warning';
  return undefined;
}
