/**
 * Options of the updater component (`tailor run --components updater`). The decision thresholds
 * keep their defaults from src/policy/update-thresholds.ts (docs/updater.md); these rows are what an
 * operator sets per cluster, including the memory-safety windows and margins (the rest of the
 * thresholds stay code defaults).
 */
import type { ConfigOf, OptionTable } from '../config/option-spec.ts';
import { booleanType, decimalType, durationType, integerType, memoryType } from '../config/option-types.ts';
import { DEFAULT_UPDATER_OPTIONS, updaterOptions, type UpdaterOptions } from '../policy/update-thresholds.ts';
import { ADMISSION_STATUS_TIMEOUT_MS } from '../kube/admission-status-names.ts';

/** The memory-safety windows and margins (also options of `tailor plan`). */
export const MEMORY_SAFETY_OPTIONS = {
  memoryPressureWindow: {
    flag: 'memory-pressure-window',
    env: 'TAILOR_MEMORY_PRESSURE_WINDOW',
    type: durationType,
    default: DEFAULT_UPDATER_OPTIONS.memoryPressureWindowMs,
    description:
      'Memory pressure guard: a working set above --memory-pressure-ratio of the limit for this long raises memory at once (needs --prometheus-url).',
    group: 'Updater',
  },
  memoryPressureRatio: {
    flag: 'memory-pressure-ratio',
    env: 'TAILOR_MEMORY_PRESSURE_RATIO',
    type: decimalType(0, 1, { minExclusive: true }),
    default: DEFAULT_UPDATER_OPTIONS.memoryPressureRatio,
    description: 'Memory pressure guard: share of the memory limit the working set must stay above (0.9 = 90%).',
    group: 'Updater',
  },
  memoryPeakWindow: {
    flag: 'memory-peak-window',
    env: 'TAILOR_MEMORY_PEAK_WINDOW',
    type: durationType,
    default: DEFAULT_UPDATER_OPTIONS.memoryPeakWindowMs,
    description: 'A memory limit is never lowered below the highest working set over this window plus the margins (needs --prometheus-url).',
    group: 'Updater',
  },
  memoryPeakMarginRatio: {
    flag: 'memory-peak-margin-ratio',
    env: 'TAILOR_MEMORY_PEAK_MARGIN_RATIO',
    type: decimalType(0, 10),
    default: DEFAULT_UPDATER_OPTIONS.memoryPeakMarginRatio,
    description: 'A lowered memory limit stays at least this share above the recent peak (0.15: a 1000Mi peak keeps the limit >= 1150Mi).',
    group: 'Updater',
  },
  memoryPeakMarginBytes: {
    flag: 'memory-peak-margin',
    env: 'TAILOR_MEMORY_PEAK_MARGIN',
    type: memoryType,
    default: DEFAULT_UPDATER_OPTIONS.memoryPeakMarginBytes,
    description: 'A lowered memory limit stays at least this much above the recent peak (the larger of the two margins applies).',
    group: 'Updater',
  },
} satisfies OptionTable;

export type MemorySafetyConfig = ConfigOf<typeof MEMORY_SAFETY_OPTIONS>;

/** Pure: the memory-safety thresholds the configuration sets. */
export function memorySafetyOptions(config: MemorySafetyConfig): Partial<UpdaterOptions> {
  return {
    memoryPressureWindowMs: config.memoryPressureWindow,
    memoryPressureRatio: config.memoryPressureRatio,
    memoryPeakWindowMs: config.memoryPeakWindow,
    memoryPeakMarginRatio: config.memoryPeakMarginRatio,
    memoryPeakMarginBytes: config.memoryPeakMarginBytes,
  };
}

export const UPDATER_OPTIONS = {
  updaterDryRun: {
    flag: 'updater-dry-run',
    env: 'TAILOR_UPDATER_DRY_RUN',
    type: booleanType,
    default: false,
    description: 'Plan, log and export the plan (tailor_updater_planned_actions) only; send no resize or eviction.',
    group: 'Updater',
  },
  allowContainerRestart: {
    flag: 'allow-container-restart',
    env: 'TAILOR_ALLOW_CONTAINER_RESTART',
    type: booleanType,
    default: false,
    description:
      'Allow in-place resizes that restart a container (resizePolicy RestartContainer) for VPAs without the tailor.dev/allow-container-restart annotation.',
    group: 'Updater',
  },
  maxResizesPerLoop: {
    flag: 'max-resizes-per-loop',
    env: 'TAILOR_MAX_RESIZES_PER_LOOP',
    type: integerType(0, 1_000_000),
    default: 1000,
    description: 'In-place resizes sent per updater loop at most (global rate limit).',
    group: 'Updater',
  },
  maxEvictionsPerLoop: {
    flag: 'max-evictions-per-loop',
    env: 'TAILOR_MAX_EVICTIONS_PER_LOOP',
    type: integerType(0, 1_000_000),
    default: 50,
    description: 'Evictions (and fallback evictions) per updater loop at most (global rate limit).',
    group: 'Updater',
  },
  useAdmissionStatus: {
    flag: 'use-admission-status',
    env: 'TAILOR_USE_ADMISSION_STATUS',
    type: booleanType,
    default: true,
    description:
      "Evict only while the admission webhook's status Lease (--admission-status-lease-name) is fresh, as upstream's updater does: an evicted pod comes back through the webhook. In-place resizes do not wait for it.",
    group: 'Updater',
  },
  admissionStatusTimeout: {
    flag: 'admission-status-timeout',
    env: 'TAILOR_ADMISSION_STATUS_TIMEOUT',
    type: durationType,
    default: ADMISSION_STATUS_TIMEOUT_MS,
    description: 'The status Lease is stale (evictions wait) when neither created nor renewed for this long.',
    group: 'Updater',
  },
  inPlaceFeatureGate: {
    flag: 'in-place-feature-gate',
    env: 'TAILOR_IN_PLACE_FEATURE_GATE',
    type: booleanType,
    default: false,
    description: 'On Kubernetes 1.27-1.32: the InPlacePodVerticalScaling feature gate is on (resizes patch the pod; needs RBAC patch pods).',
    group: 'Updater',
  },
  ...MEMORY_SAFETY_OPTIONS,
} satisfies OptionTable;

export type UpdaterConfig = ConfigOf<typeof UPDATER_OPTIONS>;

/** Pure: the updater thresholds the configuration sets (the others keep their defaults). */
export function configuredUpdaterOptions(config: UpdaterConfig): Partial<UpdaterOptions> {
  return { allowContainerRestart: config.allowContainerRestart, ...memorySafetyOptions(config) };
}

/**
 * The updater's options as the operator set them, over the defaults (and `overrides`, for tests):
 * what the updater runs with, and what the recommender's strategy models the updater with.
 * Throws UpdaterOptionsError on a value out of range.
 */
export function runUpdaterOptions(config: UpdaterConfig, overrides: Partial<UpdaterOptions> = {}): UpdaterOptions {
  return updaterOptions({ ...configuredUpdaterOptions(config), ...overrides });
}
