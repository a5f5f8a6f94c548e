/**
 * `metadata.managedFields` as far as controllers read it: on every write that carries a
 * `fieldManager`, the real API server records (or refreshes) one entry per (manager, operation,
 * apiVersion, subresource) with the write's `time`, e.g. after the updater resized a pod:
 * `{manager: 'tailor-updater', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:05:00Z',
 * fieldsType: 'FieldsV1', fieldsV1: {}, subresource: 'resize'}`.
 *
 * Simplified (docs/decisions/0111): `fieldsV1` is empty (no field ownership, no apply conflicts);
 * a write without `fieldManager` records nothing (the real server derives a manager from the user
 * agent); a write that changes nothing records nothing (as the real server skips no-op writes);
 * a body without `managedFields` keeps the stored ones.
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
  next.metadata.managedFields = [...entries, entry];
  return next;
}
