/**
 * The updater's rules for changing one container, stated once. The updater applies them to pods
 * (src/updater); the tailor strategy's mirror applies them to the requests it believes the updater
 * has set (src/model/tailor/updater-mirror.ts), and the replay to its simulated containers
 * (src/replay/update-rules.ts). The thresholds come from {@link UpdaterOptions}: the operator's.
 * - Step: one change moves a value to within [ceil(current x down), floor(current x up)] (defaults
 *   x0.5, x2). Request 300m, target 1000m -> 600m now, 1000m on the next change. Clamping is
 *   monotone, so requests <= limits and request == limit survive it. A raise may always reach the
 *   recommendation's lowerBound in one change: below it the container is short now, by the
 *   recommender's own confidence (request 10Mi, lowerBound 1160Mi, target 1300Mi -> 1160Mi, not 20Mi).
 * - Drift: a pod at least `minPodAgeForDriftMs` old (12 h) is changed when |target - request| /
 *   request, summed over the resources, reaches `driftThreshold` (10%): cpu 100m -> 112m is 0.12.
 * - Cooldown: no change within `podCooldownMs` (15 min) of the last one (OOM kills and memory
 *   pressure do not wait; the caller decides that), except a raise of a request short of its
 *   lowerBound by at least the drift threshold (request x 1.1 <= lowerBound): 250m against 481m does
 *   not wait, 450m does (decision 0296).
 * - Memory safety: a resize must never OOM-kill a container, so a memory limit is never lowered
 *   below peak + max(peak x `memoryPeakMarginRatio`, `memoryPeakMarginBytes`) of the recent peak:
 *   with 15% and 64 MiB, peak 800 MiB -> 920 MiB, peak 200 MiB -> 264 MiB. Without a known peak the
 *   limit is not lowered at all; the floor only stops decreases.
 * Pure.
 */
import type { UpdaterOptions } from './update-thresholds.ts';

/** The options these rules (and the memory pressure guard) read: what a model of the updater needs. */
export type ChangeRuleOptions = Pick<
  UpdaterOptions,
  | 'minPodAgeForDriftMs'
  | 'driftThreshold'
  | 'podCooldownMs'
  | 'maxStepUpFactor'
  | 'maxStepDownFactor'
  | 'memoryPressureRatio'
  | 'memoryPressureWindowMs'
  | 'memoryPressureRaiseFactor'
  | 'memoryPeakWindowMs'
  | 'memoryPeakMarginRatio'
  | 'memoryPeakMarginBytes'
>;

/** Those fields of `options` (and no others: eviction, canary and restart settings change no rule of one container). */
export function changeRuleOptions(options: Readonly<ChangeRuleOptions>): ChangeRuleOptions {
  return {
    minPodAgeForDriftMs: options.minPodAgeForDriftMs,
    driftThreshold: options.driftThreshold,
    podCooldownMs: options.podCooldownMs,
    maxStepUpFactor: options.maxStepUpFactor,
    maxStepDownFactor: options.maxStepDownFactor,
    memoryPressureRatio: options.memoryPressureRatio,
    memoryPressureWindowMs: options.memoryPressureWindowMs,
    memoryPressureRaiseFactor: options.memoryPressureRaiseFactor,
    memoryPeakWindowMs: options.memoryPeakWindowMs,
    memoryPeakMarginRatio: options.memoryPeakMarginRatio,
    memoryPeakMarginBytes: options.memoryPeakMarginBytes,
  };
}

type StepOptions = Pick<UpdaterOptions, 'maxStepUpFactor' | 'maxStepDownFactor'>;

/**
 * `proposed` clamped to [ceil(current x down), floor(current x up)], where a raise may reach
 * min(proposed, `raiseTo`) (the lowerBound) even beyond the step; unchanged if there is no current
 * value. Current 100m, proposed 2000m, raiseTo 900m, x2: 900m (not 200m); raiseTo 150m: 200m.
 */
export function limitStep(current: number | undefined, proposed: number, options: StepOptions, raiseTo?: number): number {
  if (current === undefined || current <= 0) return proposed;
  const low = Math.ceil(current * options.maxStepDownFactor);
  let high = Math.floor(current * options.maxStepUpFactor);
  if (raiseTo !== undefined && raiseTo > high) high = Math.max(high, Math.min(proposed, raiseTo));
  return Math.min(Math.max(proposed, low), high);
}

/** |target - request| / request, the drift rule's measure of one resource (0 without a request). */
export function relativeChange(request: number, target: number): number {
  return request > 0 ? Math.abs(target - request) / request : 0;
}

/** True when a pod `ageMs` old is old enough for the drift rule (an unknown age is not). */
export function oldEnoughToDrift(ageMs: number | undefined, options: Pick<UpdaterOptions, 'minPodAgeForDriftMs'>): boolean {
  return ageMs !== undefined && ageMs >= options.minPodAgeForDriftMs;
}

/** True when `difference` (relative changes summed over the resources) is drift: above 0 and at least the threshold. */
export function isDrift(difference: number, options: Pick<UpdaterOptions, 'driftThreshold'>): boolean {
  return difference > 0 && difference >= options.driftThreshold;
}

/** True while a change `sinceChangeMs` ago still holds the pod (the cooldown). */
export function coolingDown(sinceChangeMs: number, options: Pick<UpdaterOptions, 'podCooldownMs'>): boolean {
  return sinceChangeMs < options.podCooldownMs;
}

/**
 * True when `request` is short of the recommendation's `lowerBound` by at least the drift threshold
 * (request x (1 + 10%) <= lowerBound): short now, by the recommender's own confidence, by more than
 * a difference worth a change, so the cooldown does not hold the raise (decision 0296). Request
 * 250m, lowerBound 481m: 275m <= 481m, short; request 450m: 495m > 481m, waits out the cooldown.
 */
export function shortOfLowerBound(request: number, lowerBound: number, options: Pick<UpdaterOptions, 'driftThreshold'>): boolean {
  return request * (1 + options.driftThreshold) <= lowerBound;
}

/**
 * `shortOfLowerBound` for a container's cpu or memory (memory only where `hasMemory`): the check
 * the tailor strategies' mirror of the updater and the replay make on one container.
 */
export function anyShortOfLowerBound(
  cpu: number,
  memory: number,
  lowerBound: Readonly<{ cpu: number; memory: number }>,
  hasMemory: boolean,
  options: Pick<UpdaterOptions, 'driftThreshold'>,
): boolean {
  return shortOfLowerBound(cpu, lowerBound.cpu, options) || (hasMemory && shortOfLowerBound(memory, lowerBound.memory, options));
}

/** The lowest memory limit (bytes) a container may be resized to, given its recent peak (Infinity without one). */
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
