/**
 * `metadata.managedFields` as the real API server keeps them: on every write that carries a
 * `fieldManager` it records (or refreshes) one entry per (manager, operation, apiVersion,
 * subresource) with the write's `time` and the fields the manager owns (`fieldsV1`, see
 * field-ownership.ts), e.g. after the updater resized a pod:
 * `{manager: 'tailor-updater', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:05:00Z',
 * fieldsType: 'FieldsV1', fieldsV1: {'f:spec': {…}}, subresource: 'resize'}`.
 *
 * An Update takes the fields it changed from the other managers; an Apply owns exactly the fields
 * it sent, and fails with 409 when one of them is owned by another manager and would change,
 * unless forced. A write without `fieldManager` is recorded under the user agent's prefix
 * (`kubectl/v1.35.4 …` → `kubectl`), as the real server does; in-process writes without either
 * record nothing. An Update that changes nothing records nothing (the real server skips no-op
 * writes); a manager left owning nothing loses its entry; a body without `managedFields` keeps
 * the stored ones. Entries are kept in the real server's order: Apply before Update, then by time
 * (seconds), manager, apiVersion, subresource. docs/decisions/0111 and 0209.
 */
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from './types.ts';
import { toRfc3339 } from './object-store.ts';
import { applyConflict, decodeFieldsV1, encodeFieldsV1, leafFields, type ManagerId } from './field-ownership.ts';

/** One managedFields entry as the server writes it. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Update' | 'Apply';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

/** Who wrote, how and when; for an apply, the applied configuration and whether it is forced. */
export interface WriteInfo {
  fieldManager: string | undefined;
  operation: 'Update' | 'Apply';
  apiVersion: string;
  subresource: string;
  now: number;
  applied?: unknown;
  force?: boolean;
}

function withoutBookkeeping(obj: KubeObject): unknown {
  const { resourceVersion: _rv, managedFields: _mf, generation: _g, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/**
 * Stamps `next` (the object about to be stored) with the writer's entry and the ownership it
 * changes; `current` is the stored object (undefined on create). Mutates and returns `next`;
 * throws ApplyConflictError (409) for an unforced apply that would change another manager's field.
 */
export function recordManagedFields(next: KubeObject, current: KubeObject | undefined, write: WriteInfo): KubeObject {
  if (next.metadata.managedFields === undefined && current?.metadata.managedFields !== undefined) {
    next.metadata.managedFields = current.metadata.managedFields;
  }
  if (!write.fieldManager) return next;
  const apply = write.operation === 'Apply';
  if (!apply && current && isDeepStrictEqual(withoutBookkeeping(current), withoutBookkeeping(next))) return next;
  const before = current ? leafFields(current, true) : new Map();
  const after = leafFields(next, true);
  const removed = [...before.keys()].filter((p) => !after.has(p));
  const isSelf = (e: ManagedFieldsEntry) =>
    e.manager === write.fieldManager && e.operation === write.operation && e.apiVersion === write.apiVersion && (e.subresource ?? '') === write.subresource;
  const stored = (next.metadata.managedFields ?? []) as ManagedFieldsEntry[];
  const others = stored.filter((e) => !isSelf(e)).map((entry) => ({ entry, fields: decodeFieldsV1(entry.fieldsV1) }));
  let mine = decodeFieldsV1(stored.find(isSelf)?.fieldsV1);
  if (apply) {
    const applied = leafFields(write.applied);
    const changing = [...applied]
      .filter(([p, { value }]) => !before.has(p) || !isDeepStrictEqual(before.get(p)!.value, value))
      .map(([p]) => p)
      .sort();
    const conflicts = others.flatMap(({ entry, fields }) => changing.filter((p) => fields.has(p)).map((path) => ({ owner: entry as ManagerId, path })));
    if (conflicts.length > 0 && !write.force) throw applyConflict(conflicts);
    for (const { fields } of others) for (const p of changing) fields.delete(p);
    mine = new Map([...applied].map(([p, { path }]) => [p, path]));
  } else {
    const changed = [...after].filter(([p, { value }]) => !before.has(p) || !isDeepStrictEqual(before.get(p)!.value, value));
    for (const { fields } of others) for (const [p] of changed) fields.delete(p);
    for (const [p, { path }] of changed) mine.set(p, path);
  }
  for (const p of removed) {
    mine.delete(p);
    for (const { fields } of others) fields.delete(p);
  }
  const entries = others.filter(({ fields }) => fields.size > 0).map(({ entry, fields }) => ({ ...entry, fieldsV1: encodeFieldsV1(fields.values()) }));
  const entry: ManagedFieldsEntry = {
    manager: write.fieldManager,
    operation: write.operation,
    apiVersion: write.apiVersion,
    time: toRfc3339(write.now),
    fieldsType: 'FieldsV1',
    fieldsV1: encodeFieldsV1(mine.values()),
    ...(write.subresource ? { subresource: write.subresource } : {}),
  };
  next.metadata.managedFields = [...entries, ...(mine.size > 0 ? [entry] : [])].sort(compareEntries);
  return next;
}

/** The real server's order of managedFields (fieldmanager's sortEncodedManagedFields). */
function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1;
  const seconds = (e: ManagedFieldsEntry) => Math.floor(Date.parse(e.time) / 1000) || 0;
  if (seconds(p) !== seconds(q)) return seconds(p) - seconds(q);
  for (const key of ['manager', 'apiVersion', 'subresource'] as const) {
    const a = p[key] ?? '';
    const b = q[key] ?? '';
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

/** The manager name the real server derives from a User-Agent: its part before the first `/`, at most 128 characters. */
export function managerFromUserAgent(userAgent: string | undefined): string | undefined {
  const prefix = (userAgent ?? '').split('/')[0]!.trim().slice(0, 128);
  return prefix === '' ? undefined : prefix;
}
