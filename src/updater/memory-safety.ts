/**
 * Memory safety: a resize must never OOM-kill a container. A memory limit is never lowered below
 * the container's recent peak working set plus a margin:
 *   floor = peak + max(peak x marginRatio, marginBytes)
 * Worked number with the defaults (15%, 64 MiB): peak 800 MiB -> 800 + max(120, 64) = 920 MiB;
 * peak 200 MiB -> 200 + max(30, 64) = 264 MiB. Without a known peak the limit is not lowered at all.
 * The floor only stops decreases: a limit already below it is not raised by this rule.
 */
import type { UpdaterOptions } from '../policy/update-thresholds.ts';

/** The lowest memory limit (bytes) a container may be resized to, given its recent peak. */
export function memoryLimitFloor(peakBytes: number | undefined, options: Pick<UpdaterOptions, 'memoryPeakMarginRatio' | 'memoryPeakMarginBytes'>): number {
  if (peakBytes === undefined || !Number.isFinite(peakBytes) || peakBytes < 0) return Number.POSITIVE_INFINITY;
  return Math.ceil(peakBytes + Math.max(peakBytes * options.memoryPeakMarginRatio, options.memoryPeakMarginBytes));
}

/**
 * The memory limit to use instead of `proposed`: at least min(current, floor). Returns `proposed`
 * when it is not a decrease or already safe. Example: current 1Gi, proposed 512Mi, floor 920Mi -> 920Mi.
 */
export function safeMemoryLimit(current: number, proposed: number, floor: number): number {
  if (proposed >= current) return proposed;
  return Math.max(proposed, Math.min(current, floor));
}
