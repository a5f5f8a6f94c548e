/**
 * Every threshold the updater decides with, in one typed object, with the defaults of issue 7.
 * Times are in milliseconds. `updaterOptions({...})` fills in the defaults for anything not given.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MiB = 1024 * 1024;

/** The updater's decision thresholds. */
export interface UpdaterOptions {
  /** A pod at least this old is updated when it drifts from the target (default 12h). */
  minPodAgeForDriftMs: number;
  /** Relative difference |request - target| / request (summed over resources) that counts as drift (default 0.10). */
  driftThreshold: number;
  /** An OOM kill finished within this window triggers an immediate memory update (default 1h). */
  oomLookbackMs: number;
  /** Working set above this share of the memory limit ... (default 0.9) */
  memoryPressureRatio: number;
  /** ... for at least this long triggers the memory pressure guard (default 2 min). */
  memoryPressureWindowMs: number;
  /** The memory-safety floor uses the highest working set over this window (default 1h). */
  memoryPeakWindowMs: number;
  /** The pressure guard raises the memory request (and a scaled limit) to at least current x this factor (default 1.5). */
  memoryPressureRaiseFactor: number;
  /** A memory limit never goes below the recent peak x (1 + this) ... (default 0.15). */
  memoryPeakMarginRatio: number;
  /** ... nor below the recent peak + this many bytes (default 64 MiB). */
  memoryPeakMarginBytes: number;
  /** One change raises a value to at most current x this factor (default 2). */
  maxStepUpFactor: number;
  /** One change lowers a value to at least current x this factor (default 0.5). */
  maxStepDownFactor: number;
  /** Minimum time between two changes of the same pod (default 15 min). */
  podCooldownMs: number;
  /** Deferred resizes are waited on this long, then fall back (default 5 min). */
  deferredTimeoutMs: number;
  /** A resize in progress this long is stuck and falls back (default 1h). */
  inProgressTimeoutMs: number;
  /** Share of a workload's replicas that may be disrupted at once (default 0.5, as upstream). */
  evictionTolerance: number;
  /** Disruptive paths need at least this many live replicas, unless the VPA sets minReplicas (default 2). */
  minReplicas: number;
  /** Restarting containers to resize is allowed for every VPA (else only with the VPA annotation) (default false). */
  allowContainerRestart: boolean;
  /** Leave a resource alone when an HPA scales the workload on it (default true). */
  respectHpa: boolean;
  /** Resize only one pod of a workload until one has settled at the new values (default true). */
  canary: boolean;
}

/** The defaults (issue 7). */
export const DEFAULT_UPDATER_OPTIONS: Readonly<UpdaterOptions> = Object.freeze({
  minPodAgeForDriftMs: 12 * HOUR,
  driftThreshold: 0.1,
  oomLookbackMs: HOUR,
  memoryPressureRatio: 0.9,
  memoryPressureWindowMs: 2 * MINUTE,
  memoryPressureRaiseFactor: 1.5,
  memoryPeakWindowMs: HOUR,
  memoryPeakMarginRatio: 0.15,
  memoryPeakMarginBytes: 64 * MiB,
  maxStepUpFactor: 2,
  maxStepDownFactor: 0.5,
  podCooldownMs: 15 * MINUTE,
  deferredTimeoutMs: 5 * MINUTE,
  inProgressTimeoutMs: HOUR,
  evictionTolerance: 0.5,
  minReplicas: 2,
  allowContainerRestart: false,
  respectHpa: true,
  canary: true,
});

/** Invalid options; the message names the field. */
export class UpdaterOptionsError extends Error {
  override readonly name = 'UpdaterOptionsError';
}

/** The defaults overridden by `overrides`. Throws UpdaterOptionsError on a value out of range. */
export function updaterOptions(overrides: Partial<UpdaterOptions> = {}): UpdaterOptions {
  const o: UpdaterOptions = { ...DEFAULT_UPDATER_OPTIONS, ...overrides };
  const check = (field: keyof UpdaterOptions, ok: boolean, what: string) => {
    if (!ok) throw new UpdaterOptionsError(`updater option ${field} = ${String(o[field])}: ${what}`);
  };
  for (const field of [
    'minPodAgeForDriftMs',
    'oomLookbackMs',
    'memoryPressureWindowMs',
    'memoryPeakWindowMs',
    'podCooldownMs',
    'deferredTimeoutMs',
    'inProgressTimeoutMs',
    'memoryPeakMarginBytes',
    'driftThreshold',
    'memoryPeakMarginRatio',
  ] as const) {
    check(field, Number.isFinite(o[field]) && o[field] >= 0, 'must be a number >= 0');
  }
  check('memoryPressureRatio', o.memoryPressureRatio > 0 && o.memoryPressureRatio <= 1, 'must be in (0, 1]');
  check('memoryPressureRaiseFactor', Number.isFinite(o.memoryPressureRaiseFactor) && o.memoryPressureRaiseFactor > 1, 'must be > 1');
  check('maxStepUpFactor', Number.isFinite(o.maxStepUpFactor) && o.maxStepUpFactor > 1, 'must be > 1');
  check('maxStepDownFactor', o.maxStepDownFactor > 0 && o.maxStepDownFactor < 1, 'must be in (0, 1)');
  check('evictionTolerance', o.evictionTolerance >= 0 && o.evictionTolerance <= 1, 'must be in [0, 1]');
  check('minReplicas', Number.isInteger(o.minReplicas) && o.minReplicas >= 1, 'must be an integer >= 1');
  return o;
}
