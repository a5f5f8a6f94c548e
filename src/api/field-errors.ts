/**
 * Field errors for user objects: each names the field by its path (`spec.updatePolicy.updateMode`,
 * `spec.resourcePolicy.containerPolicies[1].maxAllowed.cpu`) and says what is wrong with it, so
 * a controller can report it in a condition and a webhook in its rejection.
 */

/** One problem with one field. */
export interface FieldError {
  /** The field's path, as `kubectl explain` spells it, with list indexes: `spec.targetRef.kind`. */
  path: string;
  message: string;
}

/** Formats errors one per line, `path: message`. */
export function formatFieldErrors(errors: readonly FieldError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join('\n');
}

/** The path of a child field: `fieldPath('spec', 'targetRef')` is `spec.targetRef`. */
export function fieldPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** A plain JSON/YAML object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Describes a value's JSON type for messages: `"a string"`, `"a list"`, `"null"`. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}
