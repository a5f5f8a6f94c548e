/**
 * Steps and pace: one change moves a value by at most a factor up or down (defaults x2 and x0.5),
 * so a wrong recommendation is corrected over several steps instead of hitting the pod at once.
 * Example: request 300m, target 1000m -> 600m now, 1000m on the next change; memory limit 2Gi,
 * target 512Mi -> 1Gi now. The bounds are whole units: [ceil(current x down), floor(current x up)].
 * Because clamping is monotone, requests <= limits and request == limit survive it.
 */
import type { ResourceAmounts } from '../api/vpa-quantities.ts';
import type { ContainerResourceValues } from '../policy/container-values.ts';
import { RESOURCE_NAMES } from '../recommender/types.ts';
import type { UpdaterOptions } from '../policy/update-thresholds.ts';

type StepOptions = Pick<UpdaterOptions, 'maxStepUpFactor' | 'maxStepDownFactor'>;

/** `proposed` clamped to [ceil(current x down), floor(current x up)]; unchanged if there is no current value. */
export function limitStep(current: number | undefined, proposed: number, options: StepOptions): number {
  if (current === undefined || current <= 0) return proposed;
  const low = Math.ceil(current * options.maxStepDownFactor);
  const high = Math.floor(current * options.maxStepUpFactor);
  return Math.min(Math.max(proposed, low), high);
}

function clampAll(current: ResourceAmounts, proposed: ResourceAmounts, options: StepOptions): ResourceAmounts {
  const out: ResourceAmounts = { ...proposed };
  for (const r of RESOURCE_NAMES) {
    const value = proposed[r];
    if (value !== undefined) out[r] = limitStep(current[r], value, options);
  }
  return out;
}

/** Every request and limit of `proposed` limited to one step from `current`. */
export function limitSteps(current: ContainerResourceValues, proposed: ContainerResourceValues, options: StepOptions): ContainerResourceValues {
  return { requests: clampAll(current.requests, proposed.requests, options), limits: clampAll(current.limits, proposed.limits, options) };
}
