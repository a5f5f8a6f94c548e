/**
 * CRD validation ratcheting (Kubernetes 1.30+, `CRDValidationRatcheting`, on by default): an
 * update may leave an object invalid as long as every part that fails the schema was already
 * there, unchanged, in the old object. So a controller can still write the status of a custom
 * resource that was stored before a stricter schema was installed.
 *
 * As the real server, errors from `anyOf`/`oneOf` are not ratcheted (kube-sim reports them with
 * "must validate"). Simplified: errors inside list items (paths with `[i]`) are not ratcheted
 * either, because kube-sim does not correlate list items between the old and new object.
 *
 * Worked example: a stored VPA with `spec.updatePolicy.updateMode: Sometimes` (not in the enum)
 * gets a status patch: the cause at `spec.updatePolicy.updateMode` has the same value in the old
 * and new object, so it is dropped and the patch succeeds; a patch that sets `updateMode:
 * Sometimes` on a valid VPA still fails.
 */
import type { StatusCause } from './api-error.ts';
import { isPlainObject } from './types.ts';

function valueAt(object: unknown, path: string): unknown {
  let current: unknown = object;
  for (const key of path.split('.')) {
    if (!isPlainObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return false;
}

/** The causes an update must still fail on: those whose field changed (or that are never ratcheted). */
export function ratchetCauses(causes: readonly StatusCause[], object: unknown, oldObject: unknown): StatusCause[] {
  return causes.filter((c) => {
    const field = c.field;
    if (field === undefined || field === '' || field.includes('[') || (c.message ?? '').includes('must validate')) return true;
    return !sameJson(valueAt(object, field), valueAt(oldObject, field));
  });
}
