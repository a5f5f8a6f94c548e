/**
 * Options of the updater component (`tailor run --components updater`). The decision thresholds
 * keep their defaults from src/updater/options.ts (docs/updater.md); these rows are what an
 * operator sets per cluster.
 */
import type { OptionTable } from './option-spec.ts';
import { booleanType, integerType } from './option-types.ts';

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
    description: 'Allow in-place resizes that restart a container (resizePolicy RestartContainer) for VPAs without the tailor.dev/allow-container-restart annotation.',
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
  inPlaceFeatureGate: {
    flag: 'in-place-feature-gate',
    env: 'TAILOR_IN_PLACE_FEATURE_GATE',
    type: booleanType,
    default: false,
    description: 'On Kubernetes 1.27-1.32: the InPlacePodVerticalScaling feature gate is on (resizes patch the pod; needs RBAC patch pods).',
    group: 'Updater',
  },
} satisfies OptionTable;
