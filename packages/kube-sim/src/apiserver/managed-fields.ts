/**
 * `metadata.managedFields` as far as controllers read it: on every write that carries a
 * `fieldManager`, the real API server records (or refreshes) one entry per (manager, operation,
 * apiVersion, subresource) with the write's `time`, e.g. after the updater resized a pod:
 * `{manager: 'tailor-updater', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:05:00Z',
 * fieldsType: 'FieldsV1', fieldsV1: {}, subresource: 'resize'}`.
 *
 * Simplified (docs/decisions/0111): `fieldsV1` is empty (no field ownership, no apply conflicts);
 * a write without `fieldManager` is recorded under the user agent's prefix (`kubectl/v1.35.4 …` →
 * `kubectl`), as the real server does, and in-process writes without either record nothing; a
 * write that changes nothing records nothing (as the real server skips no-op writes); a body
 * without `managedFields` keeps the stored ones. Entries are kept in the real server's order:
 * Apply before Update, then by time (seconds), manager, apiVersion, subresource.
 */
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from './types.ts';
import { toRfc3339 } from './object-store.ts';

/** One managedFields entry as the server writes it. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Update' | 'Apply';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, never>;
  subresource?: string;
}

/** Who wrote, how and when. */
export interface WriteInfo {
  fieldManager: string | undefined;
  operation: 'Update' | 'Apply';
  apiVersion: string;
  subresource: string;
  now: number;
}

function withoutBookkeeping(obj: KubeObject): unknown {
  const { resourceVersion: _rv, managedFields: _mf, generation: _g, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/**
 * Stamps `next` (the object about to be stored) with the writer's entry; `current` is the stored
 * object (undefined on create). Mutates and returns `next`.
 */
export function recordManagedFields(next: KubeObject, current: KubeObject | undefined, write: WriteInfo): KubeObject {
  if (next.metadata.managedFields === undefined && current?.metadata.managedFields !== undefined) {
    next.metadata.managedFields = current.metadata.managedFields;
  }
  if (!write.fieldManager) return next;
  if (current && isDeepStrictEqual(withoutBookkeeping(current), withoutBookkeeping(next))) return next;
  const entries = ((next.metadata.managedFields ?? []) as ManagedFieldsEntry[]).filter(
    (e) => !(e.manager === write.fieldManager && e.operation === write.operation && e.apiVersion === write.apiVersion && (e.subresource ?? '') === write.subresource),
  );
  const entry: ManagedFieldsEntry = {
    manager: write.fieldManager,
    operation: write.operation,
    apiVersion: write.apiVersion,
    time: toRfc3339(write.now),
    fieldsType: 'FieldsV1',
    fieldsV1: {},
    ...(write.subresource ? { subresource: write.subresource } : {}),
  };
  next.metadata.managedFields = [...entries, entry].sort(compareEntries);
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
