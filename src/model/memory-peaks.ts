/**
 * Memory is recorded as one peak per container instance per aggregation interval (24h by default):
 * the memory histogram holds each interval's peak, weight 1, timestamped at the interval's end.
 * A higher sample inside the same interval replaces the interval's peak (the old one is subtracted,
 * the new one added); a sample after the interval's end opens the interval that contains it.
 *
 * Worked example (interval 24h): samples 5 MB at t, 10 MB at t+12h, 2 MB at t+24h give the peaks
 * 10 MB (interval ending t+24h) and 2 MB (interval ending t+48h): the 5 MB peak was replaced.
 *
 * An OOM kill is recorded as a memory sample of max(used + 100 MiB, used x 1.2), where used is the
 * larger of the memory the caller reports (request or observed peak) and the instance's usage peak
 * in the current interval; it goes through the same interval logic, so it replaces the interval's
 * peak only if it is higher.
 */
import type { DecayingHistogram } from './decaying-histogram.ts';
import type { ModelOptions } from './model-options.ts';

/** The per-instance (per pod container) state behind the interval peaks and sample de-duplication. */
export class ContainerInstanceState {
  /** Time of the last CPU sample accepted (a later one must be strictly newer). */
  lastCpuSampleStart = -Infinity;
  /** Time of the last memory sample accepted (a later one must not be older). */
  lastMemorySampleStart = -Infinity;
  /** End (exclusive) of the current memory interval; undefined before the first memory sample. */
  windowEnd: number | undefined = undefined;
  /** Highest usage sample in the current interval (0 = none). */
  memoryPeak = 0;
  /** Highest OOM-derived sample in the current interval (0 = none). */
  oomPeak = 0;
}

/**
 * Records memory `bytes` at `at` for `instance` into `peaks`. Returns false (and changes nothing)
 * for an invalid value or a usage sample older than the instance's last one; OOM samples are
 * always processed.
 */
export function addMemoryPeakSample(
  instance: ContainerInstanceState,
  peaks: DecayingHistogram,
  bytes: number,
  at: number,
  isOom: boolean,
  intervalMs: number,
): boolean {
  if (!(bytes >= 0) || bytes === Infinity || !Number.isFinite(at)) return false;
  if (!isOom && at < instance.lastMemorySampleStart) return false;
  instance.lastMemorySampleStart = at;
  if (instance.windowEnd === undefined) instance.windowEnd = at;

  let addNewPeak = false;
  if (at < instance.windowEnd) {
    const oldPeak = Math.max(instance.memoryPeak, instance.oomPeak);
    if (oldPeak !== 0 && bytes > oldPeak) {
      peaks.subtractSample(oldPeak, 1, instance.windowEnd);
      addNewPeak = true;
    }
  } else {
    // Open the interval containing `at`: the end moves by whole intervals past `at`.
    const elapsed = at - instance.windowEnd;
    instance.windowEnd += Math.floor(elapsed / intervalMs) * intervalMs + intervalMs;
    instance.memoryPeak = 0;
    instance.oomPeak = 0;
    addNewPeak = true;
  }
  if (addNewPeak) {
    peaks.addSample(bytes, 1, instance.windowEnd);
    if (isOom) instance.oomPeak = bytes;
    else instance.memoryPeak = bytes;
  }
  return true;
}

/**
 * The memory an OOM-killed container needed: max(used + oomMinBumpUpBytes, floor(used x oomBumpUpRatio)).
 * Worked numbers (defaults): used 1000 MiB -> 1200 MiB (x1.2 wins); used 1 MiB -> 101 MiB (+100 MiB wins).
 */
export function oomBumpedBytes(usedBytes: number, options: Pick<ModelOptions, 'oomBumpUpRatio' | 'oomMinBumpUpBytes'>): number {
  return Math.max(usedBytes + options.oomMinBumpUpBytes, Math.floor(usedBytes * options.oomBumpUpRatio));
}

/**
 * Records an OOM kill at `at` as a bumped memory sample. `memoryUsedBytes` is what the caller knows
 * was in use (the request, or the observed peak if larger); the instance's usage peak in the current
 * interval raises it further (its OOM peak does not, so repeated OOMs do not compound).
 * Returns false when the event is more than one interval older than the last memory sample, or invalid.
 */
export function recordOomSample(
  instance: ContainerInstanceState,
  peaks: DecayingHistogram,
  memoryUsedBytes: number,
  at: number,
  options: Pick<ModelOptions, 'oomBumpUpRatio' | 'oomMinBumpUpBytes' | 'memoryAggregationIntervalMs'>,
): boolean {
  if (!(memoryUsedBytes >= 0) || memoryUsedBytes === Infinity || !Number.isFinite(at)) return false;
  const intervalMs = options.memoryAggregationIntervalMs;
  // Too old: more than one interval before the last memory sample (upstream v1.8.1's RecordOOM; it
  // was "before the current interval's start" up to v1.5, kubernetes/autoscaler#8548).
  if (instance.lastMemorySampleStart !== -Infinity && at < instance.lastMemorySampleStart - intervalMs) return false;
  const used = Math.max(memoryUsedBytes, instance.memoryPeak);
  return addMemoryPeakSample(instance, peaks, oomBumpedBytes(used, options), at, true, intervalMs);
}
