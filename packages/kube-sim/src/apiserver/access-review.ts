/**
 * authorization.k8s.io/v1 SelfSubjectAccessReview and SubjectAccessReview (create only, never
 * stored): asks the authorizer whether a user may do something. `kubectl auth can-i` uses the
 * first; controllers can check their own RBAC with it.
 */
import { badRequest } from './api-error.ts';
import type { Authorizer } from './rbac-authorizer.ts';
import type { ApiRequest, ApiResponse, UserInfo } from './request.ts';
import { isPlainObject } from './types.ts';

interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

/** Answers a (Self)SubjectAccessReview create. */
export function answerAccessReview(request: ApiRequest, authorizer: Authorizer, self: boolean): ApiResponse {
  if (!isPlainObject(request.body)) throw badRequest('the body of the request is not a JSON object');
  const spec = (request.body['spec'] ?? {}) as {
    resourceAttributes?: ResourceAttributes;
    nonResourceAttributes?: { path?: string; verb?: string };
    user?: string;
    groups?: string[];
    uid?: string;
  };
  const user: UserInfo = self ? request.user : { username: spec.user ?? '', groups: spec.groups ?? [] };
  const r = spec.resourceAttributes;
  const n = spec.nonResourceAttributes;
  const decision = authorizer.authorize({
    user,
    verb: r?.verb ?? n?.verb ?? '',
    isResourceRequest: r !== undefined,
    group: r?.group ?? '',
    resource: r?.resource ?? '',
    subresource: r?.subresource ?? '',
    namespace: r?.namespace ?? '',
    name: r?.name ?? '',
    path: n?.path ?? '',
  });
  const status: Record<string, unknown> = { allowed: decision.allowed };
  if (!decision.allowed) status['reason'] = '';
  return {
    status: 201,
    body: {
      kind: self ? 'SelfSubjectAccessReview' : 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec,
      status,
    },
  };
}
