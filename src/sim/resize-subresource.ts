/**
 * Wires the resize rules into the API server: on 1.33+ the `pods/resize` subresource (GET shows the
 * pod, PATCH/PUT go through `validateResize`); on 1.32 there is no such subresource and a plain pod
 * update that changes resources is checked by `legacyResourceUpdateErrors`.
 */
import { ApiError, type KubeSimApiServer } from './apiserver/index.ts';
import type { Pod } from './objects.ts';
import { legacyResourceUpdateErrors, resourcesChanged, validateResize } from './resize-rules.ts';
import { errorBody } from './field-errors.ts';
import { hasResizeSubresource, type ServerVersion } from './server-version.ts';
import type { KubeObject } from './apiserver/index.ts';

/** Installs the version's resize behaviour; returns a function that removes it. */
export function installResize(server: KubeSimApiServer, version: ServerVersion): () => void {
  if (hasResizeSubresource(version)) {
    return server.registerSubresource('pods', 'resize', {
      strategicMerge: true,
      update({ current, requested }) {
        const outcome = validateResize(current as unknown as Pod, requested as unknown as Pod, version);
        if (!outcome.ok) {
          const s = outcome.status;
          throw new ApiError(s.code, s.reason, s.message, s.details);
        }
        return outcome.pod as unknown as KubeObject;
      },
    });
  }
  return server.addValidator((ctx) => {
    if (ctx.type.group !== '' || ctx.type.kind !== 'Pod' || ctx.operation !== 'UPDATE' || ctx.subresource !== '' || !ctx.oldObject) return [];
    const before = ctx.oldObject as unknown as Pod;
    const after = ctx.object as unknown as Pod;
    if (!resourcesChanged(before, after)) return [];
    return legacyResourceUpdateErrors(before, after).map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
  });
}
