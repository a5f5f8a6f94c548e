/**
 * API errors as the real API server reports them: a `Status` object with an HTTP code, a machine
 * reason (NotFound, AlreadyExists, Conflict, Invalid, Forbidden, ...), a message in the real
 * server's wording and details. Handlers throw {@link ApiError}; the HTTP layer serialises it.
 */

/** One field-level cause of an `Invalid` error (`details.causes[]`). */
export interface StatusCause {
  reason: string;
  message?: string;
  field?: string;
}

/** `details` of a Status. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** A meta/v1 Status object. */
export interface StatusObject {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message: string;
  reason: string;
  details?: StatusDetails;
  code: number;
}

/** An error that the HTTP layer answers with a Status object. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ApiError';
  }

  /** The Status object for this error. */
  toStatus(): StatusObject {
    const status: StatusObject = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details !== undefined) status.details = this.details;
    return status;
  }
}

/** Identifies an object in error messages: resource plural, group and name. */
export interface ErrorTarget {
  resource: string;
  group: string;
  name?: string;
}

function qualified(target: ErrorTarget): string {
  return target.group === '' ? target.resource : `${target.resource}.${target.group}`;
}

/** 404: `pods "web-0" not found`. */
export function notFound(target: ErrorTarget): ApiError {
  return new ApiError(404, 'NotFound', `${qualified(target)} "${target.name ?? ''}" not found`, {
    name: target.name ?? '',
    group: target.group,
    kind: target.resource,
  });
}

/** 404 for a path the server does not serve. */
export function pathNotFound(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** 409: `pods "web-0" already exists`. */
export function alreadyExists(target: ErrorTarget): ApiError {
  return new ApiError(409, 'AlreadyExists', `${qualified(target)} "${target.name ?? ''}" already exists`, {
    name: target.name ?? '',
    group: target.group,
    kind: target.resource,
  });
}

/** 409 on a stale resourceVersion (optimistic concurrency). */
export function conflict(target: ErrorTarget, why = 'the object has been modified; please apply your changes to the latest version and try again'): ApiError {
  return new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(target)} "${target.name ?? ''}": ${why}`, {
    name: target.name ?? '',
    group: target.group,
    kind: target.resource,
  });
}

/** 422: `Pod "web-0" is invalid: spec.containers[0].name: Required value`. */
export function invalid(kind: string, group: string, name: string, causes: StatusCause[]): ApiError {
  const parts = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const summary = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  return new ApiError(422, 'Invalid', `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${summary}`, {
    name,
    group,
    kind,
    causes,
  });
}

/** 400 BadRequest with a free message. */
export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

/** 401 for a missing or unknown bearer token. */
export function unauthorized(): ApiError {
  return new ApiError(401, 'Unauthorized', 'Unauthorized');
}

/** 403 with the real message format of the RBAC authorizer or admission. */
export function forbidden(target: ErrorTarget, reason: string): ApiError {
  const subject = target.name ? `${qualified(target)} "${target.name}"` : qualified(target);
  return new ApiError(403, 'Forbidden', `${subject} is forbidden: ${reason}`, {
    name: target.name,
    group: target.group,
    kind: target.resource,
  });
}

/** 405 for a verb the resource does not support. */
export function methodNotSupported(target: ErrorTarget, action: string): ApiError {
  return new ApiError(
    405,
    'MethodNotAllowed',
    `the server does not allow this method on the requested resource`,
    {
      group: target.group,
      kind: target.resource,
    },
    { cause: action },
  );
}

/** 410 Expired: a watch or list asked for a resourceVersion older than the retained history. */
export function expired(message: string): ApiError {
  return new ApiError(410, 'Expired', message);
}

/** 415 for a patch content type the resource does not accept. */
export function unsupportedMediaType(contentType: string, accepted: readonly string[]): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    {},
    { cause: contentType },
  );
}

/** 429 TooManyRequests with `details.retryAfterSeconds` (the HTTP layer adds `Retry-After`). */
export function tooManyRequests(message: string, retryAfterSeconds: number, causes?: StatusCause[]): ApiError {
  // Like the real server, a zero retry-after is omitted (and no Retry-After header is sent).
  const details: StatusDetails = retryAfterSeconds > 0 ? { retryAfterSeconds } : {};
  if (causes) details.causes = causes;
  return new ApiError(429, 'TooManyRequests', message, details);
}

/** 500 InternalError: `Internal error occurred: <message>`. */
export function internalError(message: string, cause?: unknown): ApiError {
  return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ reason: 'UnexpectedServerResponse', message }] }, { cause });
}

/** 504 Timeout. */
export function timeoutError(message: string): ApiError {
  return new ApiError(504, 'Timeout', message);
}
