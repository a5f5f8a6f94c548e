/**
 * The webhook's decision for a VPA CREATE or UPDATE, worded as upstream's admission controller
 * words it (`VerticalPodAutoscaler.autoscaling.k8s.io "<name>" is invalid: ...`, the API
 * server's form of an Invalid error):
 * - an object upstream could not even decode (a quantity field holding something else:
 *   vpa-decoding.ts) is denied with upstream's sentence alone, e.g.
 *   `... "web" is invalid: .: Internal error: quantities must match the regular expression '...'`;
 * - else `validateVpa` (the same checks as `tailor validate` and the controller's
 *   `ConfigUnsupported`) and the `tailor.dev/` annotations (the updater's `AnnotationsInvalid`):
 *   a denial listing every problem with the field it is about, e.g.
 *   `... "web" is invalid: spec.resourcePolicy.containerPolicies[0].maxAllowed.cpu: 500m is below minAllowed.cpu 2`.
 * A request that is not a CREATE or UPDATE of a VPA object (a DELETE sent by a broad rule) is
 * allowed. Pure.
 */
import { formatFieldErrors, isPlainObject } from '../api/field-errors.ts';
import { validateVpa } from '../api/validate-vpa.ts';
import { vpaDecodeError } from '../api/vpa-decoding.ts';
import { annotationFieldErrors } from '../policy/annotations/annotation-field-errors.ts';
import { allow, deny, type AdmissionRequest, type AdmissionResponse } from './admission-review.ts';

/** How a VPA review ended; the `outcome` label of the admission metric. */
export type VpaOutcome = 'allowed' | 'denied';

/** The kind as the API server qualifies it in an Invalid error. */
const QUALIFIED_KIND = 'VerticalPodAutoscaler.autoscaling.k8s.io';

/** The response and outcome for a VPA review. */
export function reviewVpa(request: AdmissionRequest): { outcome: VpaOutcome; response: AdmissionResponse; problems?: string } {
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return { outcome: 'allowed', response: allow(request.uid) };
  const object = request.object;
  const metadata = isPlainObject(object) && isPlainObject(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : (request.name ?? '');
  const denied = (problems: string) => ({
    outcome: 'denied' as const,
    response: deny(request.uid, 422, 'Invalid', `${QUALIFIED_KIND} "${name}" is invalid: ${problems}`),
    problems,
  });
  const undecodable = vpaDecodeError(object);
  if (undecodable !== undefined) return denied(`.: Internal error: ${undecodable}`);
  const result = validateVpa(object);
  const errors = [...(result.ok ? [] : result.errors), ...annotationFieldErrors(object)];
  if (errors.length === 0) return { outcome: 'allowed', response: allow(request.uid) };
  return denied(formatFieldErrors(errors).split('\n').join('; '));
}
