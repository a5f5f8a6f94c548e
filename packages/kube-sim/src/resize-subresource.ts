/**
 * Wires the resize rules into the API server: on 1.33+ the `pods/resize` subresource (GET shows the
 * pod, PATCH/PUT go through `validateResize`), on 1.36+ with the PodResizeValidator admission plugin
 * (pod-resize-validator.ts); on 1.32 there is no such subresource and a plain pod
 * update that changes resources is checked by `legacyResourceUpdateErrors` and, as the 1.27-1.32
 * pod strategy did, marks the resize `Proposed` in `status.resize` for the kubelet to pick up.
 */
import { ApiError, type KubeSimApiServer } from './apiserver/index.ts';
import type { Pod } from './objects.ts';
import { legacyResourceUpdateErrors, resourcesChanged, validateResize } from './resize-rules.ts';
import { errorBody } from './field-errors.ts';
import { hasResizeSubresource, refusesResizeBeyondAllocatable, type ServerVersion } from './server-version.ts';
import { podResizeValidator } from './pod-resize-validator.ts';
import type { KubeObject } from './apiserver/index.ts';

/** Installs the version's resize behaviour; returns a function that removes it. */
export function installResize(server: KubeSimApiServer, version: ServerVersion): () => void {
  if (hasResizeSubresource(version)) {
    const validator = refusesResizeBeyondAllocatable(version) ? server.addAdmissionPlugin(podResizeValidator(server)) : () => {};
    const subresource = server.registerSubresource('pods', 'resize', {
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
    return () => {
      subresource();
      validator();
    };
  }
  const legacy = (attrs: { type: { group: string; kind: string }; operation: string; subresource: string; oldObject?: unknown; object?: unknown }) =>
    attrs.type.group === '' && attrs.type.kind === 'Pod' && attrs.operation === 'UPDATE' && attrs.subresource === '' && attrs.oldObject !== undefined;
  const proposed = server.addAdmissionPlugin({
    name: 'PodResizeProposed',
    mutate(attrs) {
      if (!legacy(attrs) || !attrs.object || !resourcesChanged(attrs.oldObject as unknown as Pod, attrs.object as unknown as Pod)) return;
      attrs.object.status = { ...((attrs.object.status ?? {}) as Record<string, unknown>), resize: 'Proposed' };
    },
  });
  const validator = server.addValidator((ctx) => {
    if (ctx.type.group !== '' || ctx.type.kind !== 'Pod' || ctx.operation !== 'UPDATE' || ctx.subresource !== '' || !ctx.oldObject) return [];
    const before = ctx.oldObject as unknown as Pod;
    const after = ctx.object as unknown as Pod;
    if (!resourcesChanged(before, after)) return [];
    return legacyResourceUpdateErrors(before, after).map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
  });
  return () => {
    proposed();
    validator();
  };
}
