/**
 * One line per changed container saying what changed and from what, in Kubernetes notation:
 * `app: cpu request 100m -> 250m, cpu limit 200m -> 500m`. For the admission webhook's pod
 * annotation, the updater's events and log lines.
 */
import type { ContainerResourcesPlan, PodResourcesPlan } from './pod-resources.ts';
import { formatAmount } from './resource-requirements.ts';

function side(plan: ContainerResourcesPlan, which: 'requests' | 'limits'): string[] {
  const word = which === 'requests' ? 'request' : 'limit';
  const out: string[] = [];
  for (const r of plan.changedResources) {
    const before = plan.current[which][r];
    const after = plan.proposed[which][r];
    if (before === after || after === undefined) continue;
    out.push(`${r} ${word} ${before === undefined ? 'unset' : formatAmount(r, before)} -> ${formatAmount(r, after)}`);
  }
  return out;
}

/** `app: cpu request 100m -> 250m, cpu limit 200m -> 500m` for one container, or undefined if unchanged. */
export function describeContainerChanges(plan: ContainerResourcesPlan): string | undefined {
  const parts = [...side(plan, 'requests'), ...side(plan, 'limits')];
  return parts.length === 0 ? undefined : `${plan.containerName}: ${parts.join(', ')}`;
}

/** One line per changed container (see describeContainerChanges). */
export function describePlanChanges(plan: PodResourcesPlan): string[] {
  return plan.containers.map(describeContainerChanges).filter((x): x is string => x !== undefined);
}
