/**
 * A resource request as the pipeline sees it, independent of HTTP: the HTTP server builds one from
 * a URL, and in-process callers (controllers, the kubelet simulator) can build one to go through
 * the same defaulting, admission and validation as a real client.
 */

/** Verbs of resource requests (RBAC verbs). */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** The authenticated caller. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** The user in-process writers act as (bypasses authorization). */
export const SYSTEM_USER: UserInfo = { username: 'system:kube-sim', groups: ['system:masters', 'system:authenticated'] };

/** One resource request. */
export interface ApiRequest {
  verb: Verb;
  group: string;
  version: string;
  /** Plural resource name from the URL. */
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Parsed JSON body (a patch body for `patch`; an array for JSON Patch). */
  body?: unknown;
  /** Content-Type of a patch body. */
  contentType?: string;
  /** Query parameters (labelSelector, fieldSelector, resourceVersion, limit, continue, dryRun, ...). */
  query: Record<string, string>;
  user: UserInfo;
  /** Collects warnings (admission webhooks, field validation) for `Warning` response headers. */
  warnings?: string[];
  /** The User-Agent header (a write without `fieldManager` is recorded under its prefix). */
  userAgent?: string;
}

/** A non-watch response: HTTP status, JSON body, extra headers. */
export interface ApiResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}
