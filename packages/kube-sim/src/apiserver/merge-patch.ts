/**
 * JSON merge patch (RFC 7386, `application/merge-patch+json`): objects merge recursively, `null`
 * deletes a key, anything else (arrays included) replaces. So a merge patch of
 * `{"spec":{"containers":[{"name":"app"}]}}` replaces the whole containers list.
 */
import { isPlainObject } from './types.ts';

/** Applies a merge patch and returns the new document (inputs are not modified). */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value);
  }
  return out;
}
