/**
 * List requests: label and field selectors, `limit`/`continue` paging and the list's
 * resourceVersion. A continue token carries the revision of the first page and the last key
 * returned (`namespace/name`); the next page resumes after that key in the current state, and a
 * token whose revision has left the watch window is 410 Expired like a compacted etcd revision.
 */
import { ApiError, expired } from './api-error.ts';
import { matchesFields, parseFieldSelector } from './field-selector.ts';
import { matchesLabels, parseLabelSelector } from './label-selector.ts';
import type { ObjectStore } from './object-store.ts';
import type { ApiRequest } from './request.ts';
import { present } from './object-view.ts';
import { apiVersionOf, storeKeyOf, type ResourceType } from './resource-type.ts';
import type { KubeObject } from './types.ts';

interface ContinueToken {
  rv: number;
  start: string;
}

/** Answers a list request with a `<Kind>List`. */
export function listObjects(store: ObjectStore, type: ResourceType, request: ApiRequest): Record<string, unknown> {
  const labels = parseLabelSelector(request.query['labelSelector']);
  const fields = parseFieldSelector(request.query['fieldSelector'], type.kind);
  const limit = Number(request.query['limit'] ?? 0);
  let token: ContinueToken | undefined;
  if (request.query['continue']) {
    try {
      token = JSON.parse(Buffer.from(request.query['continue'], 'base64url').toString('utf8')) as ContinueToken;
    } catch (err) {
      throw new ApiError(400, 'BadRequest', 'continue key is not valid: illegal base64 data', undefined, { cause: err });
    }
    if (store.history(storeKeyOf(type)).isExpired(token.rv)) {
      throw expired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.');
    }
  }
  const listVersion = request.query['resourceVersion'];
  if (request.query['resourceVersionMatch'] === 'Exact' && listVersion && store.history(storeKeyOf(type)).isExpired(Number(listVersion))) {
    throw expired('The resourceVersion for the provided list is too old.');
  }
  const namespace = type.namespaced ? request.namespace : undefined;
  // Selectors apply to the object as this API version shows it.
  const all = store
    .list(storeKeyOf(type), namespace, (obj) => matchesLabels(labels, obj.metadata.labels))
    .map((obj) => present(type, request.version, obj))
    .filter((obj) => matchesFields(fields, obj));
  let items = all;
  if (token) {
    const start = token.start;
    items = items.filter((obj) => `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}` > start);
  }
  const metadata: Record<string, unknown> = { resourceVersion: store.resourceVersion };
  if (limit > 0 && items.length > limit) {
    const remaining = items.length - limit;
    items = items.slice(0, limit);
    const last = items[items.length - 1] as KubeObject;
    const next: ContinueToken = { rv: token?.rv ?? store.currentRevision, start: `${last.metadata.namespace ?? ''}/${last.metadata.name ?? ''}` };
    metadata['continue'] = Buffer.from(JSON.stringify(next)).toString('base64url');
    metadata['remainingItemCount'] = remaining;
  }
  return {
    kind: type.listKind,
    apiVersion: apiVersionOf(type.group, request.version),
    metadata,
    items,
  };
}
