/** How a stored object is shown to a client asking through one API version. */
import { apiVersionOf, type ResourceType } from './resource-type.ts';
import type { KubeObject } from './types.ts';

/** Sets apiVersion and kind for the version a client asked for (no conversion beyond that). */
export function present(type: ResourceType, version: string, obj: KubeObject): KubeObject {
  return { ...obj, apiVersion: apiVersionOf(type.group, version), kind: type.kind };
}
