/**
 * Field selectors (`?fieldSelector=`): `=`, `==` and `!=` on the fields a real server indexes.
 * Every kind supports metadata.name and metadata.namespace; pods add spec.nodeName,
 * status.phase, spec.schedulerName, spec.serviceAccountName, status.podIP; events add
 * involvedObject.* and reason; others are rejected with 400 like the real server.
 */
import { badRequest } from './api-error.ts';
import type { KubeObject } from './types.ts';

/** One `field op value` requirement. */
export interface FieldRequirement {
  field: string;
  equal: boolean;
  value: string;
}

const POD_FIELDS = [
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'status.phase',
  'status.podIP',
  'status.nominatedNodeName',
];
const EVENT_FIELDS = [
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
  'regarding.kind',
  'regarding.name',
  'regarding.namespace',
  'regarding.uid',
];

/** Fields a kind supports in field selectors. */
export function supportedFields(kind: string): string[] {
  const common = ['metadata.name', 'metadata.namespace'];
  if (kind === 'Pod') return [...common, ...POD_FIELDS];
  if (kind === 'Event') return [...common, ...EVENT_FIELDS];
  if (kind === 'Node') return [...common, 'spec.unschedulable'];
  if (kind === 'Namespace') return [...common, 'status.phase'];
  if (kind === 'Secret') return [...common, 'type'];
  if (kind === 'ReplicaSet' || kind === 'Job') return [...common, 'status.replicas', 'status.successful'];
  return common;
}

/** Parses the selector for a kind; 400 for malformed text or an unsupported field. */
export function parseFieldSelector(text: string | undefined | null, kind: string): FieldRequirement[] {
  if (!text) return [];
  const allowed = supportedFields(kind);
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((p) => p.length > 0)
    .map((part) => {
      const m = /^([A-Za-z0-9._-]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
      if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
      const field = m[1] as string;
      if (!allowed.includes(field)) throw badRequest(`field label not supported: ${field}`);
      return { field, equal: m[2] !== '!=', value: m[3] as string };
    });
}

function readPath(obj: KubeObject, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return '';
  return typeof cur === 'string' ? cur : String(cur);
}

/** True when the object satisfies every requirement (a missing field reads as ''). */
export function matchesFields(requirements: readonly FieldRequirement[], obj: KubeObject): boolean {
  for (const req of requirements) {
    const value = req.field === 'source' ? readPath(obj, 'source.component') : readPath(obj, req.field);
    if ((value === req.value) !== req.equal) return false;
  }
  return true;
}
