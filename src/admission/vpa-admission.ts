/**
 * The validating webhook's decision for a VPA CREATE or UPDATE: `validateVpa` (the same checks as
 * `tailor validate` and the controller's `ConfigUnsupported`) and the `tailor.dev/` annotations
 * (the updater's `AnnotationsInvalid`), and a denial listing every problem
 * with the field it is about, e.g.
 * `VerticalPodAutoscaler "web" is invalid: spec.resourcePolicy.containerPolicies[0].maxAllowed.cpu: 500m is below minAllowed.cpu 2`.
 * A request that is not a CREATE or UPDATE of a VPA object (a DELETE sent by a broad rule) is
 * allowed. Pure.
 */
import { formatFieldErrors, isPlainObject } from '../api/field-errors.ts';
import { validateVpa } from '../api/validate-vpa.ts';
import { annotationFieldErrors } from '../policy/annotations/annotation-field-errors.ts';
import { allow, deny, type AdmissionRequest, type AdmissionResponse } from './admission-review.ts';

/** How a VPA review ended; the `outcome` label of the admission metric. */
export type VpaOutcome = 'allowed' | 'denied';

/** The response and outcome for a VPA review. */
export function reviewVpa(request: AdmissionRequest): { outcome: VpaOutcome; response: AdmissionResponse; problems?: string } {
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return { outcome: 'allowed', response: allow(request.uid) };
  const result = validateVpa(request.object);
  const errors = [...(result.ok ? [] : result.errors), ...annotationFieldErrors(request.object)];
  if (errors.length === 0) return { outcome: 'allowed', response: allow(request.uid) };
  const object = request.object;
  const metadata = isPlainObject(object) && isPlainObject(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : request.name ?? '';
  const problems = formatFieldErrors(errors).split('\n').join('; ');
  return {
    outcome: 'denied',
    response: deny(request.uid, 422, 'Invalid', `VerticalPodAutoscaler "${name}" is invalid: ${problems}`),
    problems,
  };
}
