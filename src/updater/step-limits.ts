/**
 * Steps and pace: one change moves a value by at most a factor up or down (defaults x2 and x0.5),
 * so a wrong recommendation is corrected over several steps instead of hitting the pod at once.
 * Example: request 300m, target 1000m -> 600m now, 1000m on the next change; memory limit 2Gi,
 * target 512Mi -> 1Gi now. The rule for one value is `limitStep` (src/policy/change-rules.ts, shared
 * with the recommender's mirror and the replay); this applies it to every request and limit.
 * A raise may reach the lowerBound in one change; a limit then moves in proportion to its request
 * (request 100m, limit 200m, lowerBound 900m -> request 900m, limit 1800m).
 */
import type { ResourceAmounts } from '../api/vpa-quantities.ts';
import type { ContainerResourceValues } from '../policy/container-values.ts';
import { RESOURCE_NAMES } from '../model/types.ts';
import type { UpdaterOptions } from '../policy/update-thresholds.ts';
import { limitStep } from '../policy/change-rules.ts';

type StepOptions = Pick<UpdaterOptions, 'maxStepUpFactor' | 'maxStepDownFactor'>;

function clampAll(current: ResourceAmounts, proposed: ResourceAmounts, options: StepOptions, raiseTo: ResourceAmounts): ResourceAmounts {
  const out: ResourceAmounts = { ...proposed };
  for (const r of RESOURCE_NAMES) {
    const value = proposed[r];
    if (value !== undefined) out[r] = limitStep(current[r], value, options, raiseTo[r]);
  }
  return out;
}

/** The lowerBound scaled for the limits: each limit by its request's raise (100m -> 900m: limit x9). */
function limitsRaiseTo(current: ContainerResourceValues, lowerBound: ResourceAmounts): ResourceAmounts {
  const out: ResourceAmounts = {};
  for (const r of RESOURCE_NAMES) {
    const bound = lowerBound[r];
    const request = current.requests[r];
    const limit = current.limits[r];
    if (bound !== undefined && request !== undefined && request > 0 && limit !== undefined) out[r] = Math.floor((limit * bound) / request);
  }
  return out;
}

/** Every request and limit of `proposed` limited to one step from `current` (a raise may reach `lowerBound`). */
export function limitSteps(
  current: ContainerResourceValues,
  proposed: ContainerResourceValues,
  options: StepOptions,
  lowerBound: ResourceAmounts = {},
): ContainerResourceValues {
  return {
    requests: clampAll(current.requests, proposed.requests, options, lowerBound),
    limits: clampAll(current.limits, proposed.limits, options, limitsRaiseTo(current, lowerBound)),
  };
}
