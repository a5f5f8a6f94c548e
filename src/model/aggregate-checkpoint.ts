/**
 * Saving an {@link AggregateContainerState} into the upstream checkpoint status format and loading
 * one back (from Tailor or from the upstream recommender).
 *
 * Saving scales the bucket weights so the largest becomes 10000 and rounds them to integers
 * (buckets that round to 0 are dropped); the exact total weight is kept. Loading spreads the total
 * weight over the buckets in proportion to the stored integers. So a bucket's share survives to
 * within 0.5/10000 of the largest bucket, and percentiles come back within one bucket.
 *
 * Worked number: weights {b10: 0.3, b12: 0.15} (total 0.45) save as {"10": 10000, "12": 5000} and
 * load back as 0.45 x 10000/15000 = 0.3 and 0.45 x 5000/15000 = 0.15.
 */
import {
  CheckpointError,
  checkpointTime,
  MAX_CHECKPOINT_WEIGHT,
  parseCheckpointStatus,
  SUPPORTED_CHECKPOINT_VERSION,
  type HistogramCheckpoint,
  type ParsedHistogramCheckpoint,
  type VerticalPodAutoscalerCheckpointStatus,
} from '../api/vpa-checkpoint.ts';
import { AggregateContainerState } from './aggregate-container-state.ts';
import type { DecayingHistogram } from './decaying-histogram.ts';
import type { ModelConfig } from './model-config.ts';

/** A decaying histogram as a checkpoint histogram. */
export function saveHistogramCheckpoint(histogram: DecayingHistogram): HistogramCheckpoint {
  const h = histogram.histogram;
  const bucketWeights: Record<string, number> = {};
  let largest = 0;
  for (let b = h.minBucket; b >= 0 && b <= h.maxBucket; b++) largest = Math.max(largest, h.bucketWeight(b));
  if (largest > 0) {
    const ratio = MAX_CHECKPOINT_WEIGHT / largest;
    for (let b = h.minBucket; b <= h.maxBucket; b++) {
      const weight = Math.floor(h.bucketWeight(b) * ratio + 0.5);
      if (weight > 0) bucketWeights[String(b)] = weight;
    }
  }
  return {
    referenceTimestamp: checkpointTime(histogram.referenceTime),
    totalWeight: h.totalWeight,
    bucketWeights,
  };
}

/**
 * Adds a parsed checkpoint histogram into an EMPTY decaying histogram and sets its reference time.
 * `field` names the histogram in errors (a bucket index beyond the scheme is rejected).
 */
export function loadHistogramCheckpoint(target: DecayingHistogram, checkpoint: ParsedHistogramCheckpoint, field: string): void {
  if (!target.isEmpty() || target.totalWeight !== 0) throw new Error('loadHistogramCheckpoint needs an empty histogram');
  const n = target.options.numBuckets;
  let sum = 0;
  for (const [index, weight] of checkpoint.bucketWeights) {
    if (index >= n) throw new CheckpointError(`${field}.bucketWeights["${index}"]`, `bucket index out of range [0, ${n - 1}]`);
    sum += weight;
  }
  if (checkpoint.referenceTime !== undefined) target.setReferenceTime(checkpoint.referenceTime);
  if (sum === 0 || checkpoint.totalWeight === 0) return;
  const ratio = checkpoint.totalWeight / sum;
  for (const [index, weight] of checkpoint.bucketWeights) {
    if (weight > 0) target.histogram.addToBucket(index, weight * ratio);
  }
  // Upstream keeps the checkpoint's total, not the float sum of the rescaled buckets.
  target.histogram.setTotalWeight(checkpoint.totalWeight);
}

/** The checkpoint status for `state`, stamped `lastUpdateTime = now`. */
export function saveAggregateCheckpoint(state: AggregateContainerState, now: number): VerticalPodAutoscalerCheckpointStatus {
  return {
    lastUpdateTime: checkpointTime(now),
    version: SUPPORTED_CHECKPOINT_VERSION,
    cpuHistogram: saveHistogramCheckpoint(state.cpu),
    memoryHistogram: saveHistogramCheckpoint(state.memoryPeaks),
    firstSampleStart: checkpointTime(state.firstSampleStart),
    lastSampleStart: checkpointTime(state.lastSampleStart),
    totalSamplesCount: state.totalSamplesCount,
  };
}

/**
 * A new state restored from a checkpoint `status` (as read from the API: unknown shape). Throws
 * {@link CheckpointError} naming the field for a malformed or unsupported checkpoint; nothing is
 * half-loaded. The per-instance memory intervals are not in checkpoints: the next sample of each
 * pod opens a new interval (as upstream after a restart).
 */
export function loadAggregateCheckpoint(config: ModelConfig, status: unknown, createdAt?: number): AggregateContainerState {
  const parsed = parseCheckpointStatus(status);
  const state = new AggregateContainerState(config, createdAt);
  loadHistogramCheckpoint(state.cpu, parsed.cpuHistogram, 'status.cpuHistogram');
  loadHistogramCheckpoint(state.memoryPeaks, parsed.memoryHistogram, 'status.memoryHistogram');
  state.firstSampleStart = parsed.firstSampleStart;
  state.lastSampleStart = parsed.lastSampleStart;
  state.totalSamplesCount = parsed.totalSamplesCount;
  return state;
}
