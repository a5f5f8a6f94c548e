/**
 * Resource quantities the real server cannot decode. Its typed decoding fails before validation, so
 * a body with an unparsable quantity (`cpu: lots`) never reaches the `Invalid` field errors:
 * - a create or update body: 400 `Pod in version "v1" cannot be handled as a Pod: quantities must
 *   match the regular expression '…'`;
 * - a PATCH: 422 with one cause on field `patch` whose value is the patch printed as Go prints a
 *   map (`map[spec:map[containers:[map[name:app …]]]]`) — the strategic-merge path of the real
 *   server (handlers/patch.go `applyPatchToObject`), recorded in the fidelity corpus.
 */
import { isQuantity } from 'kube-basics/quantity';
import { ApiError } from './api-error.ts';
import { isPlainObject } from './types.ts';

const QUANTITY_PATTERN_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

function badList(list: unknown): boolean {
  if (!isPlainObject(list)) return false;
  return Object.values(list).some((v) => !(isQuantity(v) || (typeof v === 'number' && Number.isFinite(v))));
}

/** Whether any `resources.requests`/`resources.limits` or `overhead` in the object holds an unparsable quantity. */
export function hasUnparsableQuantity(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasUnparsableQuantity);
  if (!isPlainObject(value)) return false;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'resources' && isPlainObject(child) && (badList(child['requests']) || badList(child['limits']))) return true;
    if (key === 'overhead' && badList(child)) return true;
    if (hasUnparsableQuantity(child)) return true;
  }
  return false;
}

/** A JSON value printed as Go's `%+v` prints the map it decodes into (keys sorted, no quotes). */
export function goValueString(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValueString).join(' ')}]`;
  if (isPlainObject(value)) {
    return `map[${Object.keys(value)
      .sort()
      .map((k) => `${k}:${goValueString(value[k])}`)
      .join(' ')}]`;
  }
  return String(value);
}

/** The 400 for a create or update body of `kind` (in `version`) with an unparsable quantity. */
export function cannotBeHandled(kind: string, version: string): ApiError {
  return new ApiError(400, 'BadRequest', `${kind} in version "${version}" cannot be handled as a ${kind}: ${QUANTITY_PATTERN_ERROR}`);
}

/** The 422 for a PATCH whose result holds an unparsable quantity (`patch` is the request's patch body). */
export function patchCannotBeDecoded(patch: unknown): ApiError {
  const value = goValueString(patch);
  return new ApiError(422, 'Invalid', ` "" is invalid: patch: Invalid value: ${JSON.stringify(value)}: ${QUANTITY_PATTERN_ERROR}`, {
    causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(value)}: ${QUANTITY_PATTERN_ERROR}`, field: 'patch' }],
  });
}
