/**
 * The memory pressure guard acts before the OOM, not after: when a container's working set has
 * stayed above a share of its memory limit for the whole window (default 90% for 2 minutes), its
 * memory is raised in place at once. "Stayed above" is read as: the minimum working set over the
 * window is above the share. Example: limit 1 GiB, share 0.9 -> 921.6 MiB; a minimum of 950 MiB
 * over the last 2 minutes is pressure, a minimum of 900 MiB is not.
 */
import type { ContainerUsage } from './container-usage.ts';
import type { UpdaterOptions } from '../policy/update-thresholds.ts';

/** True if the container is under memory pressure against `memoryLimitBytes`. */
export function underMemoryPressure(
  usage: ContainerUsage | undefined,
  memoryLimitBytes: number | undefined,
  options: Pick<UpdaterOptions, 'memoryPressureRatio' | 'memoryPressureWindowMs'>,
): boolean {
  if (!usage || memoryLimitBytes === undefined || memoryLimitBytes <= 0) return false;
  const min = usage.memoryWorkingSetMinBytes;
  const window = usage.memoryWindowMs;
  if (min === undefined || window === undefined || window < options.memoryPressureWindowMs) return false;
  return min > memoryLimitBytes * options.memoryPressureRatio;
}
