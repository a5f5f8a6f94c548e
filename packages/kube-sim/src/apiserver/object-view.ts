/** How a stored object is shown to a client asking through one API version. */
import { apiVersionOf, type ResourceType } from './resource-type.ts';
import type { KubeObject } from './types.ts';

/**
 * The object as a client of `version` sees it: converted from storage when the type shares storage
 * (events.k8s.io Events), with apiVersion and kind set (no other conversion between versions).
 */
export function present(type: ResourceType, version: string, obj: KubeObject): KubeObject {
  const view = type.storage ? type.storage.fromStorage(obj) : obj;
  return { ...view, apiVersion: apiVersionOf(type.group, version), kind: type.kind };
}
