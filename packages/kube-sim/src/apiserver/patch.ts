/**
 * Applies a PATCH body by its Content-Type: JSON Patch (RFC 6902, via fast-json-patch), JSON merge
 * patch, strategic merge patch (built-in kinds only, like the real server) and a simplified
 * server-side apply (create-or-merge, no field ownership or conflicts; needs `fieldManager`).
 */
import fastJsonPatch from 'fast-json-patch';
import { parse as parseYaml } from 'yaml';
import { ApiError, badRequest, invalid, unsupportedMediaType } from './api-error.ts';
import { applyMergePatch } from './merge-patch.ts';
import { applyStrategicMergePatch } from './strategic-merge-patch.ts';
import { isPlainObject, type KubeObject } from './types.ts';

/** The patch types the server understands. */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

const MEDIA: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** Media types accepted for a kind (strategic merge only for built-ins). */
export function acceptedPatchTypes(strategic: boolean): string[] {
  const base = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];
  return strategic ? [...base, 'application/strategic-merge-patch+json'] : base;
}

/** Maps a Content-Type header to a patch type; 415 for anything else. */
export function patchTypeOf(contentType: string | undefined, strategicAllowed: boolean): PatchType {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const type = MEDIA[media];
  if (!type || (type === 'strategic' && !strategicAllowed)) throw unsupportedMediaType(media, acceptedPatchTypes(strategicAllowed));
  return type;
}

/** Parses a raw patch body for its type (apply patches may be YAML). */
export function parsePatchBody(type: PatchType, raw: string): unknown {
  try {
    return type === 'apply' ? parseYaml(raw) : JSON.parse(raw);
  } catch (err) {
    throw badRequest(`error decoding patch: ${(err as Error).message}`);
  }
}

/**
 * Applies a patch of the given type to `current` and returns the new object. An apply patch on a
 * built-in kind merges like a strategic merge patch; on a custom resource (no merge keys) like a
 * merge patch, lists being atomic.
 */
export function applyPatch(type: PatchType, current: KubeObject, patch: unknown, strategicKind = true): KubeObject {
  switch (type) {
    case 'json':
      return applyJsonPatch(current, patch);
    case 'merge':
      if (!isPlainObject(patch)) throw badRequest('json: cannot unmarshal patch into Go value of type map[string]interface {}');
      return applyMergePatch(current, patch) as KubeObject;
    case 'apply':
      if (!strategicKind) {
        if (!isPlainObject(patch)) throw badRequest('json: cannot unmarshal patch into Go value of type map[string]interface {}');
        return applyMergePatch(current, patch) as KubeObject;
      }
      if (!isPlainObject(patch)) throw badRequest('json: cannot unmarshal patch into Go value of type map[string]interface {}');
      return applyStrategicMergePatch(current, patch) as KubeObject;
    case 'strategic':
      if (!isPlainObject(patch)) throw badRequest('json: cannot unmarshal patch into Go value of type map[string]interface {}');
      return applyStrategicMergePatch(current, patch) as KubeObject;
  }
}

function applyJsonPatch(current: KubeObject, patch: unknown): KubeObject {
  if (!Array.isArray(patch)) throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  try {
    const result = fastJsonPatch.applyPatch(structuredClone(current), patch as fastJsonPatch.Operation[], true, false);
    return result.newDocument;
  } catch (err) {
    const message = err instanceof Error ? (err.message.split('\n')[0] ?? err.message) : String(err);
    throw new ApiError(
      422,
      'Invalid',
      `the server rejected our request due to an error in our request`,
      {
        causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }],
      },
      { cause: err },
    );
  }
}

/** 422 for an apply patch without `fieldManager`, worded like the real server. */
export function requireFieldManager(query: Record<string, string>): void {
  if (!query['fieldManager']) {
    throw invalid('PatchOptions', 'meta.k8s.io', '', [
      { reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' },
    ]);
  }
}
