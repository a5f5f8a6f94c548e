/**
 * Parses a request URL into what it addresses, like the real server's RequestInfoFactory:
 * `/api/v1/namespaces/default/pods/web-0/resize` -> group '', version v1, namespace default,
 * resource pods, name web-0, subresource resize; the HTTP method and `watch=true` give the verb.
 * Anything else (`/version`, `/apis`, `/openapi/v2`, `/metrics/...`) is a non-resource request.
 */
import type { Verb } from './request.ts';

/** What a URL addresses. */
export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  verb: Verb | string;
  group: string;
  version: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/** Parses a method and URL path (without query) plus the query. */
export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const nonResource: RequestInfo = { isResourceRequest: false, path, verb: method.toLowerCase(), group: '', version: '', resource: '' };
  const parts = path
    .split('/')
    .filter((p) => p.length > 0)
    .map((p) => decodeURIComponent(p));
  let rest: string[];
  let group = '';
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    version = parts[1] as string;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1] as string;
    version = parts[2] as string;
    rest = parts.slice(3);
  } else {
    return nonResource;
  }
  let legacyWatch = false;
  if (rest[0] === 'watch') {
    legacyWatch = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const info: RequestInfo = { isResourceRequest: true, path, verb: '', group, version, resource: rest[0] ?? '' };
  if (namespace !== undefined) info.namespace = namespace;
  if (rest[1] !== undefined) info.name = rest[1];
  if (rest[2] !== undefined) info.subresource = rest.slice(2).join('/');
  if (info.resource === 'namespaces' && namespace === undefined && info.name !== undefined) {
    // /api/v1/namespaces/{name}[/status|/finalize]: the namespace object itself.
  }
  const watch = legacyWatch || query.get('watch') === 'true' || query.get('watch') === '1';
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
      info.verb = info.name !== undefined ? (watch ? 'watch' : 'get') : watch ? 'watch' : 'list';
      break;
    case 'POST':
      info.verb = 'create';
      break;
    case 'PUT':
      info.verb = 'update';
      break;
    case 'PATCH':
      info.verb = 'patch';
      break;
    case 'DELETE':
      info.verb = info.name !== undefined ? 'delete' : 'deletecollection';
      break;
    default:
      info.verb = method.toLowerCase();
  }
  return info;
}
