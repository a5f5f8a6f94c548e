/**
 * The problems of a VPA's `tailor.dev/` annotations as field errors, for `tailor validate` and
 * the validating webhook: `metadata.annotations[tailor.dev/cooldown]: "5 minutes": not a duration
 * (write e.g. 90s, 5m, 1h30m)`. Pure; never throws.
 */
import { isPlainObject, type FieldError } from '../../api/field-errors.ts';
import { readWorkloadAnnotations } from './workload-annotations.ts';

/** The field errors of an object's annotations (a VPA as parsed from YAML/JSON, valid or not). */
export function annotationFieldErrors(object: unknown): FieldError[] {
  const metadata = isPlainObject(object) && isPlainObject(object.metadata) ? object.metadata : undefined;
  if (!metadata || !isPlainObject(metadata.annotations)) return [];
  const annotations = Object.fromEntries(Object.entries(metadata.annotations).map(([k, v]) => [k, String(v)]));
  return readWorkloadAnnotations(annotations).problems.map((p) => ({
    path: `metadata.annotations[${p.annotation}]`,
    message: `${JSON.stringify(p.value)}: ${p.message}`,
  }));
}
