/**
 * Applies a VPA's resource policy to a recommendation before it is published in the VPA status:
 * a container whose policy mode is `Off` gets no recommendation; resources outside
 * `controlledResources` are dropped; target, lowerBound and upperBound are clamped to
 * [minAllowed, maxAllowed] (maxAllowed wins a conflict); `uncappedTarget` keeps the target as it
 * was. Example: target cpu 2500m with maxAllowed 2 -> target 2000m, uncappedTarget 2500m.
 * LimitRanges are not applied here but per pod (pod-resources.ts), as upstream does.
 */
import type { PodResourcePolicy } from '../api/vpa.ts';
import type { NumericContainerRecommendation, ResourceAmounts } from '../api/vpa-quantities.ts';
import type { ResourceName } from 'kube-basics/resources';
import { describeAmount, type Adjustment } from './adjustments.ts';
import { containerPolicyFor, type EffectiveContainerPolicy } from './container-policy.ts';

/** The capped recommendation (undefined when the container's mode is Off) and what was capped. */
export interface CappedRecommendation {
  recommendation: NumericContainerRecommendation | undefined;
  reasons: Adjustment[];
}

/** Caps one container's recommendation with the VPA's policy. Quantities in the policy must be valid. */
export function capRecommendation(rec: NumericContainerRecommendation, resourcePolicy: PodResourcePolicy | undefined): CappedRecommendation {
  const policy = containerPolicyFor(resourcePolicy, rec.containerName);
  const container = rec.containerName;
  if (policy.mode === 'Off') {
    return { recommendation: undefined, reasons: [{ code: 'ContainerModeOff', container, message: 'container policy mode is Off; no recommendation' }] };
  }
  const reasons: Adjustment[] = [];
  const controlled = (amounts: ResourceAmounts): ResourceAmounts => {
    const out: ResourceAmounts = {};
    for (const r of policy.controlledResources) if (amounts[r] !== undefined) out[r] = amounts[r];
    return out;
  };
  const clamp = (amounts: ResourceAmounts, what: string, explain: boolean): ResourceAmounts => {
    const out = controlled(amounts);
    for (const r of policy.controlledResources) {
      const value = out[r];
      if (value === undefined) continue;
      const clamped = clampOne(policy, r, value);
      if (clamped === value) continue;
      out[r] = clamped;
      if (explain) {
        const code = clamped > value ? 'RaisedToMinAllowed' : 'CappedToMaxAllowed';
        const bound = clamped > value ? 'minAllowed' : 'maxAllowed';
        reasons.push({
          code,
          container,
          resource: r,
          message: `${r}: ${what} ${describeAmount(r, value)} ${clamped > value ? 'raised' : 'capped'} to ${bound} ${describeAmount(r, clamped)}`,
        });
      }
    }
    return out;
  };
  const out: NumericContainerRecommendation = {
    containerName: container,
    target: clamp(rec.target, 'target', true),
    uncappedTarget: controlled(rec.uncappedTarget ?? rec.target),
  };
  if (rec.lowerBound) out.lowerBound = clamp(rec.lowerBound, 'lowerBound', false);
  if (rec.upperBound) out.upperBound = clamp(rec.upperBound, 'upperBound', false);
  return { recommendation: out, reasons };
}

function clampOne(policy: EffectiveContainerPolicy, r: ResourceName, value: number): number {
  let v = value;
  const min = policy.minAllowed[r];
  const max = policy.maxAllowed[r];
  if (min !== undefined && v < min) v = min;
  if (max !== undefined && v > max) v = max;
  return v;
}
