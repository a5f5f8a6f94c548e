/**
 * The run log's one line per VPA whose recommendation changed: which container's target went from
 * what to what, in the units a person reads, e.g.
 * `recommendation changed for shop/web: app cpu 250m→224m, memory 256Mi→250Mi`, or for the first
 * one `recommendation made for shop/web: app cpu 224m, memory 250Mi`. A change of the bounds alone
 * (the target unchanged) is `routine`: the caller logs it at debug.
 */
import { describeAmount } from '../policy/adjustments.ts';
import { resourceListToAmounts } from '../api/vpa-quantities.ts';
import type { RecommendedContainerResources, RecommendedPodResources, ResourceList } from '../api/vpa.ts';
import { formatCpu } from 'kube-basics/quantity';

/** One VPA's change: the line, and whether only the bounds moved. */
export interface RecommendationChange {
  message: string;
  /** Targets unchanged (bounds or uncappedTarget only). */
  routine: boolean;
}

function amount(resource: 'cpu' | 'memory', list: ResourceList | undefined): string | undefined {
  if (list?.[resource] === undefined) return undefined;
  try {
    const value = resourceListToAmounts(list)[resource]!;
    return resource === 'cpu' ? formatCpu(value) : describeAmount('memory', value);
  } catch {
    return list[resource];
  }
}

function containerChange(before: RecommendedContainerResources | undefined, after: RecommendedContainerResources): string | undefined {
  const parts: string[] = [];
  for (const r of ['cpu', 'memory'] as const) {
    const now = amount(r, after.target);
    const then = amount(r, before?.target);
    if (now === undefined || now === then) continue;
    parts.push(before === undefined || then === undefined ? `${r} ${now}` : `${r} ${then}→${now}`);
  }
  return parts.length === 0 ? undefined : `${after.containerName} ${parts.join(', ')}`;
}

/** The change from `before` to `after` of VPA `vpa` (`namespace/name`); undefined when the two are the same. */
export function describeRecommendationChange(
  vpa: string,
  before: RecommendedPodResources | undefined,
  after: RecommendedPodResources | undefined,
): RecommendationChange | undefined {
  const was = new Map((before?.containerRecommendations ?? []).map((c) => [c.containerName, c]));
  const now = after?.containerRecommendations ?? [];
  const parts: string[] = [];
  for (const c of now) {
    const part = containerChange(was.get(c.containerName), c);
    if (part) parts.push(part);
  }
  const names = new Set(now.map((c) => c.containerName));
  for (const name of was.keys()) if (!names.has(name)) parts.push(`${name} no longer recommended`);
  const first = was.size === 0;
  if (parts.length > 0) return { message: `recommendation ${first ? 'made' : 'changed'} for ${vpa}: ${parts.join('; ')}`, routine: false };
  if (JSON.stringify(before?.containerRecommendations ?? []) === JSON.stringify(now)) return undefined;
  return { message: `recommendation bounds changed for ${vpa} (targets unchanged)`, routine: true };
}
