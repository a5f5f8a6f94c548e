/**
 * Writes a plan back into Kubernetes form. Only the cpu and memory values that the plan changes
 * are rewritten (formatted as `250m`, `512Mi`, ...); every other entry, other resources such as
 * ephemeral-storage and the original spelling of unchanged values are kept as they were. This is
 * what the admission webhook patches into a new pod and the updater sends to `pods/resize`.
 */
import type { V1ResourceRequirements } from '@kubernetes/client-node';
import { formatCpu, formatMemory } from 'kube-basics/quantity';
import type { ResourceName } from 'kube-basics/resources';
import type { ContainerResourcesPlan } from './pod-resources.ts';

/** Formats an amount as a Kubernetes quantity string. */
export function formatAmount(resource: ResourceName, value: number): string {
  return resource === 'cpu' ? formatCpu(value) : formatMemory(value);
}

/** The container's resource requirements with the plan's changes applied. Does not modify `original`. */
export function applyPlanToRequirements(original: V1ResourceRequirements | undefined, plan: ContainerResourcesPlan): V1ResourceRequirements {
  const out: V1ResourceRequirements = { ...original };
  const requests = { ...original?.requests };
  const limits = { ...original?.limits };
  for (const r of plan.changedResources) {
    const request = plan.proposed.requests[r];
    const limit = plan.proposed.limits[r];
    if (request !== undefined && request !== plan.current.requests[r]) requests[r] = formatAmount(r, request);
    if (limit !== undefined && limit !== plan.current.limits[r]) limits[r] = formatAmount(r, limit);
  }
  if (Object.keys(requests).length > 0) out.requests = requests;
  if (Object.keys(limits).length > 0) out.limits = limits;
  return out;
}
