/**
 * From a VPA's `targetRef` to the label selector of the workload's pods. The well-known workload
 * kinds carry their selector in the object; any other kind is asked through its `scale`
 * subresource, whose `status.selector` is the string form.
 *
 * - Deployment, StatefulSet, DaemonSet, ReplicaSet, Job: `spec.selector` (a LabelSelector).
 * - ReplicationController: `spec.selector` (a plain label map).
 * - CronJob: the labels of `spec.jobTemplate.spec.template` (its pods carry them).
 */
import { parseSelector, type LabelSelector } from './label-selector.ts';

/** Where a well-known workload kind lives in the API. */
export interface WorkloadResource {
  group: string;
  version: string;
  plural: string;
}

export const WORKLOAD_KINDS: Readonly<Record<string, WorkloadResource>> = {
  Deployment: { group: 'apps', version: 'v1', plural: 'deployments' },
  StatefulSet: { group: 'apps', version: 'v1', plural: 'statefulsets' },
  DaemonSet: { group: 'apps', version: 'v1', plural: 'daemonsets' },
  ReplicaSet: { group: 'apps', version: 'v1', plural: 'replicasets' },
  ReplicationController: { group: '', version: 'v1', plural: 'replicationcontrollers' },
  Job: { group: 'batch', version: 'v1', plural: 'jobs' },
  CronJob: { group: 'batch', version: 'v1', plural: 'cronjobs' },
};

/** Why a target has no usable selector. */
export class TargetSelectorError extends Error {
  override readonly name = 'TargetSelectorError';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function labelMap(value: unknown, what: string): LabelSelector {
  if (!isObj(value) || Object.keys(value).length === 0) throw new TargetSelectorError(`${what} has no labels to select its pods by`);
  return { matchLabels: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)])) };
}

/** The pod selector of a well-known workload object (`kind` one of {@link WORKLOAD_KINDS}). */
export function workloadSelector(kind: string, object: unknown): LabelSelector {
  const spec = isObj(object) && isObj(object['spec']) ? object['spec'] : undefined;
  if (!spec) throw new TargetSelectorError(`${kind} has no spec`);
  if (kind === 'ReplicationController') return labelMap(spec['selector'], 'ReplicationController spec.selector');
  if (kind === 'CronJob') {
    const job = isObj(spec['jobTemplate']) && isObj(spec['jobTemplate']['spec']) ? spec['jobTemplate']['spec'] : undefined;
    const template = job && isObj(job['template']) && isObj(job['template']['metadata']) ? job['template']['metadata'] : undefined;
    return labelMap(template?.['labels'], 'CronJob spec.jobTemplate.spec.template');
  }
  const selector = spec['selector'];
  if (!isObj(selector)) throw new TargetSelectorError(`${kind} has no spec.selector`);
  return selector as LabelSelector;
}

/** The pod selector from a `scale` subresource answer (`status.selector`, string form). */
export function scaleSelector(kind: string, scale: unknown): LabelSelector {
  const status = isObj(scale) && isObj(scale['status']) ? scale['status'] : undefined;
  const selector = status?.['selector'];
  if (typeof selector !== 'string' || selector === '') throw new TargetSelectorError(`the scale subresource of ${kind} reports no status.selector`);
  return parseSelector(selector);
}
