/**
 * Steps and pace: one change moves a value by at most a factor up or down (defaults x2 and x0.5),
 * so a wrong recommendation is corrected over several steps instead of hitting the pod at once.
 * Example: request 300m, target 1000m -> 600m now, 1000m on the next change; memory limit 2Gi,
 * target 512Mi -> 1Gi now. The rule for one value is `limitStep` (src/policy/change-rules.ts, shared
 * with the recommender's mirror and the replay); this applies it to every request and limit.
 */
import type { ResourceAmounts } from '../api/vpa-quantities.ts';
import type { ContainerResourceValues } from '../policy/container-values.ts';
import { RESOURCE_NAMES } from '../recommender/types.ts';
import type { UpdaterOptions } from '../policy/update-thresholds.ts';
import { limitStep } from '../policy/change-rules.ts';

type StepOptions = Pick<UpdaterOptions, 'maxStepUpFactor' | 'maxStepDownFactor'>;

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
