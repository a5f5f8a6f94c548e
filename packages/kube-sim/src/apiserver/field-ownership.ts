/**
 * Field ownership for server-side apply, the part the real server enforces that a client can
 * trip over: which manager owns which leaf field (kept in `managedFields[].fieldsV1` in the real
 * trie format, `{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{…}}}}`), and the 409 an apply
 * gets when it sets a field another manager owns to a different value:
 * `Apply failed with 2 conflicts: conflicts with "kubectl" using v1:\n- .spec.containers[name="app"].resources.limits.cpu\n- …`
 * (causes: one `FieldManagerConflict` per field). An Update takes the fields it changed from the
 * others; an Apply owns exactly the fields it sent (a forced one takes them from the others).
 * Simplified: list items are keyed by one merge key (strategic-merge-patch.ts), values are compared
 * as JSON (not as typed quantities), and fields an apply stops sending are not removed.
 */
import { ApiError } from './api-error.ts';
import { mergeKeyFor } from './strategic-merge-patch.ts';
import { isPlainObject } from './types.ts';

type Segment = { f: string } | { k: Record<string, unknown> };
/** Leaf paths by their printed form, each with its segments and value. */
export type FieldSet = Map<string, { path: Segment[]; value: unknown }>;

/** Metadata the server owns (never a manager's). */
const SERVER_METADATA = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
  'generateName',
]);

function printSegment(s: Segment): string {
  if ('f' in s) return `.${s.f}`;
  return `[${Object.entries(s.k)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(',')}]`;
}

/** `.spec.containers[name="app"].resources.limits.cpu`, as the real server prints a path. */
export function printPath(path: Segment[]): string {
  return path.map(printSegment).join('');
}

/** The leaf fields of an object (top-level apiVersion/kind, server metadata and, unless `withStatus`, status left out). */
export function leafFields(obj: unknown, withStatus = false): FieldSet {
  const out: FieldSet = new Map();
  const walk = (value: unknown, path: Segment[], field: string) => {
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      for (const [k, v] of Object.entries(value)) {
        if (path.length === 0 && (k === 'apiVersion' || k === 'kind' || (k === 'status' && !withStatus))) continue;
        if (path.length === 1 && 'f' in path[0]! && path[0].f === 'metadata' && SERVER_METADATA.has(k)) continue;
        walk(v, [...path, { f: k }], k);
      }
      return;
    }
    if (Array.isArray(value) && value.length > 0) {
      const key = mergeKeyFor(field, value, []);
      if (key !== undefined && value.every((e) => isPlainObject(e) && e[key] !== undefined)) {
        for (const e of value as Record<string, unknown>[]) walk(e, [...path, { k: { [key]: e[key] } }], '');
        return;
      }
    }
    const p = [...path];
    out.set(printPath(p), { path: p, value });
  };
  walk(obj, [], '');
  return out;
}

/** The real fieldsV1 trie of a set of leaf paths. */
export function encodeFieldsV1(fields: Iterable<Segment[]>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const path of fields) {
    let node = root;
    for (const s of path) {
      const name = 'f' in s ? `f:${s.f}` : `k:${JSON.stringify(s.k)}`;
      node[name] ??= 'k' in s ? { '.': {} } : {};
      node = node[name] as Record<string, unknown>;
    }
  }
  return root;
}

/** The leaf paths of a fieldsV1 trie (printed form → segments). */
export function decodeFieldsV1(trie: unknown): Map<string, Segment[]> {
  const out = new Map<string, Segment[]>();
  const walk = (node: unknown, path: Segment[]) => {
    const children = isPlainObject(node) ? Object.entries(node).filter(([k]) => k !== '.') : [];
    if (children.length === 0) {
      if (path.length > 0) out.set(printPath(path), path);
      return;
    }
    for (const [name, child] of children) {
      if (name.startsWith('f:')) walk(child, [...path, { f: name.slice(2) }]);
      else if (name.startsWith('k:')) walk(child, [...path, { k: JSON.parse(name.slice(2)) as Record<string, unknown> }]);
    }
  };
  walk(trie, []);
  return out;
}

/** A managedFields entry's identity, as the real server prints it in a conflict. */
export interface ManagerId {
  manager: string;
  operation: 'Update' | 'Apply';
  apiVersion: string;
  subresource?: string;
}

/** `"kubectl" using v1`, `"tailor" with subresource "resize"` (printManager in the real fieldmanager). */
export function printManager(m: ManagerId): string {
  let out = JSON.stringify(m.manager);
  if (m.subresource) out += ` with subresource ${JSON.stringify(m.subresource)}`;
  return m.operation === 'Update' ? `${out} using ${m.apiVersion}` : out;
}

/** The 409 for apply conflicts: (owner, path) pairs in path order per owner. */
export function applyConflict(conflicts: { owner: ManagerId; path: string }[]): ApplyConflictError {
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.owner)}`, field: c.path }));
  if (conflicts.length === 1) {
    return new ApplyConflictError(`Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!.owner)}: ${conflicts[0]!.path}`, causes);
  }
  const byOwner = new Map<string, { owner: ManagerId; paths: string[] }>();
  for (const c of conflicts) {
    const key = JSON.stringify({ manager: c.owner.manager, operation: c.owner.operation, apiVersion: c.owner.apiVersion, subresource: c.owner.subresource });
    if (!byOwner.has(key)) byOwner.set(key, { owner: c.owner, paths: [] });
    byOwner.get(key)!.paths.push(c.path);
  }
  const lines = [...byOwner.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([, { owner, paths }]) => [`conflicts with ${printManager(owner)}:`, ...paths.map((p) => `- ${p}`)]);
  return new ApplyConflictError(`Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`, causes);
}

/** A 409 Conflict from field ownership (not retried like a resourceVersion conflict). */
export class ApplyConflictError extends ApiError {
  constructor(message: string, causes: { reason: string; message: string; field: string }[]) {
    super(409, 'Conflict', message, { causes });
  }
}
