/**
 * The generic `status` and `scale` subresources. `status` takes only `.status` from the request
 * (metadata and spec stay as stored); `scale` shows and sets the replicas as an autoscaling/v1
 * Scale object, for built-in workloads and CRDs that declare a scale subresource.
 */
import { badRequest } from './api-error.ts';
import { formatLabelSelector, type LabelSelectorObject } from './label-selector.ts';
import type { ScaleSubresourcePaths } from './resource-type.ts';
import type { SubresourceHandler } from './subresource.ts';
import { cloneObject, isPlainObject, type KubeObject } from './types.ts';

/** `<kind>/status`: only the status of the request is stored. */
export const statusSubresource: SubresourceHandler = {
  update({ current, requested }) {
    const next = cloneObject(current);
    next.metadata.resourceVersion = requested.metadata.resourceVersion ?? current.metadata.resourceVersion;
    if (requested.status === undefined) delete next.status;
    else next.status = requested.status;
    return next;
  },
};

function readPath(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const part of path.replace(/^\./, '').split('.')) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.replace(/^\./, '').split('.');
  let cur = obj;
  for (const part of parts.slice(0, -1)) {
    if (!isPlainObject(cur[part])) cur[part] = {};
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1] as string] = value;
}

/** The `scale` subresource for a kind whose replicas live at the given paths. */
export function scaleSubresource(paths: ScaleSubresourcePaths, builtin: boolean): SubresourceHandler {
  return {
    strategicMerge: true,
    get({ current }) {
      let selector = '';
      if (builtin) {
        const spec = (current.spec ?? {}) as { selector?: LabelSelectorObject };
        selector = spec.selector ? formatLabelSelector(spec.selector) : '';
      } else if (paths.labelSelectorPath) {
        const value = readPath(current, paths.labelSelectorPath);
        selector = typeof value === 'string' ? value : '';
      }
      const status: Record<string, unknown> = { replicas: Number(readPath(current, paths.statusReplicasPath) ?? 0) };
      if (selector) status['selector'] = selector;
      const m = current.metadata;
      return {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
        spec: { replicas: Number(readPath(current, paths.specReplicasPath) ?? 0) },
        status,
      };
    },
    update({ current, requested }) {
      const replicas = (requested.spec as { replicas?: unknown } | undefined)?.replicas;
      if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas))) {
        throw badRequest('Scale.spec.replicas must be an integer');
      }
      const next = cloneObject(current) as KubeObject;
      next.metadata.resourceVersion = requested.metadata.resourceVersion ?? current.metadata.resourceVersion;
      writePath(next as Record<string, unknown>, paths.specReplicasPath, replicas ?? 0);
      return next;
    },
  };
}
