/**
 * Which VPA controls a pod: among the VPAs of the pod's namespace, those whose `spec.targetRef`
 * names the pod's top-most owner (same kind and name; same API group when the targetRef gives an
 * apiVersion, versions may differ). When several match, the oldest wins (earliest
 * creationTimestamp, then name), as upstream does, so adding a second VPA never changes which one
 * applies.
 */
import { groupOf, type OwnerRef } from './top-most-owner.ts';

/** The parts of a VPA object that matching reads (raw objects from the watch cache). */
export interface VpaLike {
  metadata?: { name?: string; namespace?: string; creationTimestamp?: string | Date };
  spec?: { targetRef?: { apiVersion?: string; kind?: string; name?: string } };
}

/** True if the VPA's targetRef names the owner. */
export function targets(vpa: VpaLike, owner: OwnerRef): boolean {
  const ref = vpa.spec?.targetRef;
  if (!ref || ref.kind !== owner.kind || ref.name !== owner.name) return false;
  return ref.apiVersion === undefined || groupOf(ref.apiVersion) === groupOf(owner.apiVersion);
}

function createdAt(vpa: VpaLike): number {
  const t = vpa.metadata?.creationTimestamp;
  const ms = t instanceof Date ? t.getTime() : t ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
}

/** The oldest VPA targeting the owner, or undefined. Pure. */
export function vpaForOwner<V extends VpaLike>(vpas: readonly V[], owner: OwnerRef): V | undefined {
  let best: V | undefined;
  for (const vpa of vpas) {
    if (!targets(vpa, owner)) continue;
    if (!best) {
      best = vpa;
      continue;
    }
    const a = createdAt(vpa);
    const b = createdAt(best);
    if (a < b || (a === b && (vpa.metadata?.name ?? '') < (best.metadata?.name ?? ''))) best = vpa;
  }
  return best;
}
