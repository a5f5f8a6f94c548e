/**
 * Facts about a decision's container changes: what an eviction brings (the policy's values, which
 * the admission webhook gives the new pod), the ordering facts (scale-up, summed relative change of
 * the requests: cpu 100m -> 200m is 1.0), and whether a change only repeats the pending resize.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { readResourceValues } from '../policy/container-values.ts';
import type { PodResourcesPlan } from '../policy/pod-resources.ts';
import { RESOURCE_NAMES } from '../model/types.ts';
import type { ContainerChange, PodDecision } from './decision.ts';
import { specResourcesOf } from './resize-guard.ts';

/** The changes an eviction brings (what the admission webhook will give the new pod). */
export function evictionChanges(plan: PodResourcesPlan): ContainerChange[] {
  return plan.containers
    .filter((c) => c.changedResources.length > 0)
    .map((c) => ({ containerName: c.containerName, kind: c.kind, from: c.current, to: c.proposed, resources: c.changedResources, restart: false }));
}

/** Scale-up flag and the summed relative change of the requests (pod totals per resource). */
export function ordering(changes: readonly ContainerChange[]): Pick<PodDecision, 'scaleUp' | 'difference'> {
  let difference = 0;
  let scaleUp = false;
  for (const r of RESOURCE_NAMES) {
    let from = 0;
    let to = 0;
    for (const c of changes) {
      const a = c.from.requests[r] ?? 0;
      const b = c.to.requests[r] ?? 0;
      if (b > a) scaleUp = true;
      from += a;
      to += b;
    }
    if (from > 0) difference += Math.abs(to - from) / from;
    else if (to > 0) difference += 1;
  }
  return { scaleUp, difference };
}

/** True if the changes only repeat what the spec already asks for (the pending resize). */
export function sameAsPending(pod: V1Pod, changes: readonly ContainerChange[]): boolean {
  return changes.every((change) => {
    try {
      const desired = readResourceValues(specResourcesOf(pod, change.containerName));
      return RESOURCE_NAMES.every((r) => desired.requests[r] === change.to.requests[r] && desired.limits[r] === change.to.limits[r]);
    } catch {
      return false;
    }
  });
}
