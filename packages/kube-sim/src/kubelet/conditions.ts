/** Setting and removing pod conditions the way the kubelet does (transition time kept when unchanged). */
import type { PodCondition, PodStatus } from '../objects.ts';

/** RFC 3339 with second precision, as Kubernetes serialises metav1.Time. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Returns the status with `condition` set: lastTransitionTime changes only when status changes. */
export function setCondition(status: PodStatus, condition: Omit<PodCondition, 'lastTransitionTime' | 'lastProbeTime'>, now: number): PodStatus {
  const conditions = [...(status.conditions ?? [])];
  const index = conditions.findIndex((c) => c.type === condition.type);
  const previous = index >= 0 ? conditions[index] : undefined;
  const next: PodCondition = {
    ...condition,
    lastProbeTime: null,
    lastTransitionTime: previous && previous.status === condition.status ? previous.lastTransitionTime : rfc3339(now),
  };
  if (next.reason === undefined) delete next.reason;
  if (next.message === undefined) delete next.message;
  if (index >= 0) conditions[index] = next;
  else conditions.push(next);
  return { ...status, conditions };
}

/** Returns the status without conditions of this type. */
export function removeCondition(status: PodStatus, type: string): PodStatus {
  if (!status.conditions?.some((c) => c.type === type)) return status;
  return { ...status, conditions: status.conditions.filter((c) => c.type !== type) };
}

export function findCondition(status: PodStatus | undefined, type: string): PodCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}
