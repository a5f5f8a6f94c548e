/**
 * The dry-run view of a plan: one line per pod with the decision, the reason and what changes,
 * from -> to, in the plan's order. Example:
 *   shop/web-1 ResizeInPlace OutsideBounds: app cpu request 100m below lowerBound 150m | app: cpu request 100m -> 200m
 *   shop/web-2 Wait Canary: waiting for the canary pod of this workload to settle (planned: ...)
 * Quantities are written as Kubernetes writes them (`250m`, `2`, `768Mi`).
 */
import type { ContainerResourceValues } from '../policy/container-values.ts';
import { formatAmount } from '../policy/resource-requirements.ts';
import { RESOURCE_NAMES } from '../recommender/types.ts';
import type { ContainerChange, PodDecision } from './decision.ts';

function describeValue(r: (typeof RESOURCE_NAMES)[number], v: number | undefined): string {
  return v === undefined ? 'none' : formatAmount(r, v);
}

/** `app: cpu request 100m -> 200m, memory limit 1Gi -> 1536Mi (restart)`. */
export function describeChange(change: ContainerChange): string {
  const parts: string[] = [];
  const kinds: [keyof ContainerResourceValues, string][] = [['requests', 'request'], ['limits', 'limit']];
  for (const r of RESOURCE_NAMES) {
    for (const [key, word] of kinds) {
      const from = change.from[key][r];
      const to = change.to[key][r];
      if (from !== to) parts.push(`${r} ${word} ${describeValue(r, from)} -> ${describeValue(r, to)}`);
    }
  }
  return `${change.containerName}: ${parts.join(', ')}${change.restart ? ' (restart)' : ''}`;
}

/** One line for one decision. */
export function formatDecision(d: PodDecision): string {
  const changes = d.changes.length > 0 ? ` | ${d.changes.map(describeChange).join('; ')}` : '';
  return `${d.namespace}/${d.podName} ${d.action} ${d.reason}: ${d.message}${changes}`;
}

/** The whole plan, one line per pod, then a summary line with counts per action. */
export function formatPlan(decisions: readonly PodDecision[]): string {
  const counts = new Map<string, number>();
  for (const d of decisions) counts.set(d.action, (counts.get(d.action) ?? 0) + 1);
  const summary = ['ResizeInPlace', 'ResizeWithRestart', 'Evict', 'Wait', 'Skip'].map((a) => `${a} ${counts.get(a) ?? 0}`).join(', ');
  return [...decisions.map(formatDecision), `${decisions.length} pod(s): ${summary}`].join('\n');
}
