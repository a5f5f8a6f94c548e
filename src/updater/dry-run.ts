/**
 * The dry-run view of a plan: one line per pod with the decision, the reason and what changes,
 * from -> to, in the plan's order. Example:
 *   shop/web-1 ResizeInPlace OutsideBounds: app cpu request 100m below lowerBound 150m | app: cpu request 100m -> 200m
 *   shop/web-2 Wait Canary: waiting for the canary pod of this workload to settle (planned: ...)
 *   shop/db-1 ResizeInPlace OutsideBounds: ...; waits: app memory (restart): outside the disruption window ... | app: cpu ... | waits (DisruptionWindow): app: memory ... (restart)
 * Quantities are written as Kubernetes writes them (`250m`, `2`, `768Mi`).
 */
import { describeContainerChanges } from '../policy/plan-summary.ts';
import type { ContainerChange, PodDecision } from './decision.ts';

/** `app: cpu request 100m -> 200m, memory limit 1Gi -> 1536Mi (restart)`, in the policy's notation. */
export function describeChange(change: ContainerChange): string {
  const line = describeContainerChanges({
    containerName: change.containerName,
    kind: change.kind,
    current: change.from,
    proposed: change.to,
    changedResources: change.resources,
    reasons: [],
  });
  return `${line ?? `${change.containerName}: unchanged`}${change.restart ? ' (restart)' : ''}`;
}

/** One line for one decision. */
export function formatDecision(d: PodDecision): string {
  const changes = d.changes.length > 0 ? ` | ${d.changes.map(describeChange).join('; ')}` : '';
  const waiting = d.waiting ? ` | waits (${d.waiting.reason}): ${d.waiting.changes.map(describeChange).join('; ')}` : '';
  return `${d.namespace}/${d.podName} ${d.action} ${d.reason}: ${d.message}${changes}${waiting}`;
}

/** The whole plan, one line per pod, then a summary line with counts per action. */
export function formatPlan(decisions: readonly PodDecision[]): string {
  const counts = new Map<string, number>();
  for (const d of decisions) counts.set(d.action, (counts.get(d.action) ?? 0) + 1);
  const summary = ['ResizeInPlace', 'ResizeWithRestart', 'Evict', 'Wait', 'Skip'].map((a) => `${a} ${counts.get(a) ?? 0}`).join(', ');
  return [...decisions.map(formatDecision), `${decisions.length} pod(s): ${summary}`].join('\n');
}
