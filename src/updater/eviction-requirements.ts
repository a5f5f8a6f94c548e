/**
 * `spec.updatePolicy.evictionRequirements` (upstream semantics): evict only when every
 * requirement holds; a requirement `{resources: [cpu], changeRequirement: TargetHigherThanRequests}`
 * holds when, for some container, a listed resource's new request is above the current one
 * (`TargetLowerThanRequests`: below). Example: only scale-ups of cpu justify an eviction.
 */
import type { EvictionRequirement } from '../api/vpa.ts';
import type { ContainerChange } from './decision.ts';

/** Undefined if the eviction is allowed, else why not. */
export function evictionRequirementsMet(requirements: readonly EvictionRequirement[] | undefined, changes: readonly ContainerChange[]): string | undefined {
  for (const req of requirements ?? []) {
    const higher = req.changeRequirement === 'TargetHigherThanRequests';
    const holds = changes.some((c) =>
      req.resources.some((r) => {
        const from = c.from.requests[r];
        const to = c.to.requests[r];
        if (to === undefined) return false;
        return higher ? to > (from ?? 0) : from !== undefined && to < from;
      }),
    );
    if (!holds) return `evictionRequirements: ${req.resources.join(', ')} must be ${higher ? 'higher' : 'lower'} than the requests`;
  }
  return undefined;
}
