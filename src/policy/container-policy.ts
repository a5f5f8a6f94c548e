/**
 * The container policy that applies to a container: the one named after it, else the `"*"`
 * policy, else the defaults (mode Auto, cpu and memory controlled, RequestsAndLimits, no bounds).
 * A named policy replaces the `"*"` one entirely; the two are not merged (as upstream).
 */
import { DEFAULT_CONTAINER_NAME, type ContainerResourcePolicy, type ContainerScalingMode, type ControlledValues, type PodResourcePolicy } from '../api/vpa.ts';
import { resourceListToAmounts, type ResourceAmounts } from '../api/vpa-quantities.ts';
import { RESOURCE_NAMES, type ResourceName } from 'kube-basics/resources';

/** A container policy with every default filled in and quantities as numbers. */
export interface EffectiveContainerPolicy {
  /** `containerName` of the policy used, or undefined when the defaults apply. */
  source: string | undefined;
  mode: ContainerScalingMode;
  controlledResources: readonly ResourceName[];
  controlledValues: ControlledValues;
  minAllowed: ResourceAmounts;
  maxAllowed: ResourceAmounts;
}

/** The policy as written that applies to `containerName` (its own, else `"*"`), if any. */
export function containerPolicyOf(resourcePolicy: PodResourcePolicy | undefined, containerName: string): ContainerResourcePolicy | undefined {
  const policies = resourcePolicy?.containerPolicies ?? [];
  return policies.find((p) => p.containerName === containerName) ?? policies.find((p) => p.containerName === DEFAULT_CONTAINER_NAME);
}

/**
 * The effective policy for `containerName`. Quantities are assumed valid (run `validateVpa` first);
 * one that does not parse throws QuantityError.
 */
export function containerPolicyFor(resourcePolicy: PodResourcePolicy | undefined, containerName: string): EffectiveContainerPolicy {
  const policy = containerPolicyOf(resourcePolicy, containerName);
  return {
    source: policy?.containerName,
    mode: policy?.mode ?? 'Auto',
    controlledResources: policy?.controlledResources ?? RESOURCE_NAMES,
    controlledValues: policy?.controlledValues ?? 'RequestsAndLimits',
    minAllowed: resourceListToAmounts(policy?.minAllowed),
    maxAllowed: resourceListToAmounts(policy?.maxAllowed),
  };
}
