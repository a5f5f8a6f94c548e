/** The workload objects the controllers read (apps/v1, batch/v1), as plain JSON. */
import type { ObjectMeta, Pod, PodTemplate } from '../objects.ts';

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

export interface Workload {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: {
    replicas?: number;
    selector?: LabelSelector;
    template: PodTemplate;
    serviceName?: string;
    parallelism?: number;
    completions?: number;
    backoffLimit?: number;
    [key: string]: unknown;
  };
  status?: Record<string, unknown>;
}

/** What a controller wants done: pods to create (through the API, so admission runs), pods to delete, the new status. */
export interface ReconcileResult {
  create: Pod[];
  delete: string[];
  status: Record<string, unknown>;
}

/** Whether a label set matches a selector (matchLabels and matchExpressions). */
export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(l, e.key);
    const inValues = has && (e.values ?? []).includes(l[e.key]!);
    if (e.operator === 'In' && !inValues) return false;
    if (e.operator === 'NotIn' && inValues) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** A pod counts toward replicas while it is not being deleted and has not finished. */
export function isActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
}

export function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** Whether `owner` is the controller of `obj` (by uid). */
export function controlledBy(obj: { metadata: ObjectMeta }, owner: { metadata: ObjectMeta }): boolean {
  return (obj.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === owner.metadata.uid);
}
