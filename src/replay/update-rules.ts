/**
 * The updater's rules, as the replay simulates them (issue 7): when a container's requests may
 * change, and by how much per change. Pure. The thresholds are not copied: they are derived from
 * the real updater's options (src/policy/update-thresholds.ts, `DEFAULT_UPDATER_OPTIONS`), and the
 * step, drift and memory-floor arithmetic is the updater's own (src/policy/change-rules.ts).
 */
import type { ResourceEstimate, Resources } from '../model/types.ts';
import { limitStep, memoryLimitFloor, relativeChange, anyShortOfLowerBound } from '../policy/change-rules.ts';
import { DEFAULT_UPDATER_OPTIONS, type UpdaterOptions } from '../policy/update-thresholds.ts';

/** When and how far the updater moves requests. All times in milliseconds. */
export interface UpdateRules {
  /** Act when the container is at least this old and the target differs enough (default 12 h). */
  minAgeMs: number;
  /** Summed relative difference |target - request| / request that counts as "enough" (default 0.1). */
  minRelativeDiff: number;
  /** At least this long between two changes of one container (default 15 min); an OOM skips it. */
  cooldownMs: number;
  /** Largest factor of one increase (default 2: at most x2 per change). */
  maxStepUp: number;
  /** Smallest factor of one decrease (default 0.5: at most halved per change). */
  maxStepDown: number;
  /**
   * Memory pressure guard (issue 7): when the working set stays at or above `threshold` x the
   * memory limit for `durationMs`, memory is raised at once (no cooldown) to the larger of the
   * strategy's target and limit x `raiseFactor`, within the step limit. Null turns it off.
   */
  memoryPressure: MemoryPressureRule | null;
  /**
   * Memory safety (issue 7): a memory decrease never goes below the peak of the last
   * `windowMs` + max(peak x `marginRatio`, `marginBytes`). Null turns it off.
   */
  memorySafety: MemorySafetyRule | null;
}

/** See {@link UpdateRules.memorySafety}. */
export interface MemorySafetyRule {
  windowMs: number;
  marginRatio: number;
  marginBytes: number;
}

/** See {@link UpdateRules.memoryPressure}. */
export interface MemoryPressureRule {
  threshold: number;
  durationMs: number;
  raiseFactor: number;
}

/**
 * The window of the "recent peak" the memory-safety floor is taken over (1 h). In the cluster it
 * is the updater shell's usage query (`max_over_time(...[1h])`, src/updater/container-usage.ts),
 * not a planner option, so the replay names it here.
 */
export const MEMORY_PEAK_WINDOW_MS = 3_600_000;

/**
 * The replay's rules from the real updater's options, field by field: minPodAgeForDriftMs ->
 * minAgeMs, driftThreshold -> minRelativeDiff, podCooldownMs -> cooldownMs, maxStep*Factor ->
 * maxStep*, memoryPressure{Ratio,WindowMs,RaiseFactor} -> memoryPressure, memoryPeakMargin{Ratio,
 * Bytes} -> memorySafety (over `peakWindowMs`).
 */
export function updateRulesFrom(options: Readonly<UpdaterOptions>, peakWindowMs: number = MEMORY_PEAK_WINDOW_MS): UpdateRules {
  return {
    minAgeMs: options.minPodAgeForDriftMs,
    minRelativeDiff: options.driftThreshold,
    cooldownMs: options.podCooldownMs,
    maxStepUp: options.maxStepUpFactor,
    maxStepDown: options.maxStepDownFactor,
    memoryPressure: Object.freeze({
      threshold: options.memoryPressureRatio,
      durationMs: options.memoryPressureWindowMs,
      raiseFactor: options.memoryPressureRaiseFactor,
    }),
    memorySafety: Object.freeze({
      windowMs: peakWindowMs,
      marginRatio: options.memoryPeakMarginRatio,
      marginBytes: options.memoryPeakMarginBytes,
    }),
  };
}

/**
 * The rules of the real updater with its defaults (issue 7): 12 h age, 10% drift, 15 min
 * cooldown, x2 / x0.5 steps, pressure 90% for 2 min -> x1.5, memory never lowered below the last
 * hour's peak + max(15%, 64 MiB). Derived from `DEFAULT_UPDATER_OPTIONS`; see docs/decisions/0051.
 */
export const DEFAULT_UPDATE_RULES: Readonly<UpdateRules> = Object.freeze(updateRulesFrom(DEFAULT_UPDATER_OPTIONS));

/**
 * The lowest memory a decrease may go to: peak + max(peak x marginRatio, marginBytes), rounded up
 * to a whole byte (the updater's `memoryLimitFloor`).
 * Worked number with the defaults: peak 800 MiB -> 800 + max(120, 64) = 920 MiB.
 */
export function memoryFloor(peakBytes: number, rule: MemorySafetyRule): number {
  return memoryLimitFloor(peakBytes, { memoryPeakMarginRatio: rule.marginRatio, memoryPeakMarginBytes: rule.marginBytes });
}

/** What the updater knows about one container when it decides. */
export interface ContainerUpdateState {
  /** Current requests (memory limit = memory request in the replay). */
  request: Resources;
  /** When the container (re)started, ms. */
  startedAt: number;
  /** When its requests last changed, ms (-Infinity if never). */
  lastChangeAt: number;
  /** True when an OOM kill happened since the last change: act on memory at once. */
  oomPending: boolean;
  /** True when the memory pressure guard fired: raise memory at once. */
  pressurePending: boolean;
  /** Whether memory is tracked for this container (false for CPU-only traces). */
  hasMemory: boolean;
}

/** Why the updater acts, or undefined when it leaves the container alone. */
export type UpdateReason = 'oom' | 'memory-pressure' | 'outside-bounds' | 'drift';

/**
 * Decides whether the updater changes the container now. Order: an OOM, then memory pressure, act
 * at once on memory (no cooldown, no age); otherwise nothing during the cooldown (unless a request
 * is short of its lowerBound by the drift threshold, `shortNow`, and `shortSkipsCooldown`); then a request
 * outside [lowerBound, upperBound]; then an old enough container whose summed relative difference
 * exceeds the threshold ('drift').
 * Worked number: request 500m, target 440m, lower 400m, upper 600m: inside the bounds; the
 * difference |440 - 500| / 500 = 12% >= 10%, so a container older than 12 h is updated ('drift').
 */
export function updateReason(
  state: ContainerUpdateState,
  estimate: ResourceEstimate,
  rules: UpdateRules,
  now: number,
  shortSkipsCooldown = true,
): UpdateReason | undefined {
  if (state.oomPending && state.hasMemory) return 'oom';
  if (state.pressurePending && state.hasMemory) return 'memory-pressure';
  if (now - state.lastChangeAt < rules.cooldownMs && !(shortSkipsCooldown && shortNow(state, estimate, rules))) return undefined;
  if (cpuOutsideBounds(state, estimate) || memoryOutsideBounds(state, estimate)) return 'outside-bounds';
  return drifted(state, estimate, rules, now) ? 'drift' : undefined;
}

/** A request short of its lowerBound by at least the drift threshold: the cooldown does not hold it (`anyShortOfLowerBound`). */
export function shortNow(state: ContainerUpdateState, estimate: ResourceEstimate, rules: UpdateRules): boolean {
  return anyShortOfLowerBound(state.request.cpu, state.request.memory, estimate.lowerBound, state.hasMemory, { driftThreshold: rules.minRelativeDiff });
}

/** The CPU request is outside the estimate's bounds. */
export function cpuOutsideBounds(state: ContainerUpdateState, estimate: ResourceEstimate): boolean {
  const cpu = state.request.cpu;
  return cpu < estimate.lowerBound.cpu || cpu > estimate.upperBound.cpu;
}

/** The memory request is outside the estimate's bounds (never for CPU-only containers). */
export function memoryOutsideBounds(state: ContainerUpdateState, estimate: ResourceEstimate): boolean {
  const memory = state.request.memory;
  return state.hasMemory && (memory < estimate.lowerBound.memory || memory > estimate.upperBound.memory);
}

/** Old enough, and the summed relative difference to the target at least the threshold. */
export function drifted(state: ContainerUpdateState, estimate: ResourceEstimate, rules: UpdateRules, now: number): boolean {
  if (now - state.startedAt < rules.minAgeMs) return false;
  let diff = relativeChange(state.request.cpu, estimate.target.cpu);
  if (state.hasMemory) diff += relativeChange(state.request.memory, estimate.target.memory);
  return diff >= rules.minRelativeDiff;
}

/**
 * Moves `current` toward `target` by at most one step, as the updater does (`limitStep`): within
 * [ceil(current x maxStepDown), floor(current x maxStepUp)]. Example: current 200m, target 900m,
 * maxStepUp 2: the change goes to 400m; with lowerBound 700m, to 700m (a raise reaches the lowerBound
 * in one change). A zero current request jumps straight to the target.
 */
export function stepToward(current: number, target: number, rules: UpdateRules, lowerBound?: number): number {
  return limitStep(current, target, { maxStepUpFactor: rules.maxStepUp, maxStepDownFactor: rules.maxStepDown }, lowerBound);
}
