/**
 * Field validation errors and the `Status` objects the API server answers with, in the wording of
 * apimachinery's `field.Error` and `errors.NewInvalid`:
 * `Pod "web-0" is invalid: spec.containers[0].resources.limits[memory]: Forbidden: ...` with one
 * `details.causes` entry per error (`reason: FieldValueForbidden`, `message: "Forbidden: ..."`).
 */

export type FieldErrorType = 'FieldValueForbidden' | 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueNotSupported';

/** One validation error on one field path. */
export interface FieldError {
  type: FieldErrorType;
  /** Field path such as `spec.containers[0].resources.requests`; `""` for the object itself. */
  field: string;
  detail: string;
  /** The offending value (only for FieldValueInvalid). */
  value?: unknown;
}

export function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, detail };
}

export function invalid(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, detail, value };
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The part after the field path, e.g. `Forbidden: memory limits cannot be decreased ...`. */
export function errorBody(error: FieldError): string {
  switch (error.type) {
    case 'FieldValueForbidden':
      return `Forbidden: ${error.detail}`;
    case 'FieldValueRequired':
      return `Required value${error.detail ? `: ${error.detail}` : ''}`;
    case 'FieldValueNotSupported':
      return `Unsupported value: ${formatValue(error.value)}${error.detail ? `: ${error.detail}` : ''}`;
    case 'FieldValueInvalid':
      return `Invalid value: ${formatValue(error.value)}: ${error.detail}`;
  }
}

/** `field: body`, as `field.Error.Error()` prints it. */
export function errorString(error: FieldError): string {
  return `${error.field}: ${errorBody(error)}`;
}

/** A Kubernetes `Status` object (metav1.Status) for a failed request. */
export interface StatusObject {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: Array<{ reason: string; message: string; field: string }>;
  };
  code: number;
}

/**
 * The 422 `Invalid` Status for a list of field errors, as `errors.NewInvalid(kind, name, errs)`:
 * one error prints bare, several print as `[a, b]`.
 */
export function invalidStatus(kind: string, group: string, name: string, errors: readonly FieldError[]): StatusObject {
  const printed = errors.map(errorString);
  const aggregate = printed.length === 1 ? printed[0]! : `[${printed.join(', ')}]`;
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${qualifiedKind} ${JSON.stringify(name)} is invalid: ${aggregate}`,
    reason: 'Invalid',
    details: {
      name,
      group: group || undefined,
      kind,
      causes: errors.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field })),
    },
    code: 422,
  };
}

/** A Status with any code and reason (NotFound 404, BadRequest 400, Forbidden 403, ...). */
export function failureStatus(code: number, reason: string, message: string, details?: StatusObject['details']): StatusObject {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code };
}
