/**
 * AdmissionReview v1 (admission.k8s.io/v1) as the API server sends it to a webhook and the
 * response it expects: the same `uid`, `allowed`, and for a mutation a base64 JSON Patch with
 * `patchType: JSONPatch`; a denial carries `status {code, reason, message}`, which kubectl prints
 * as `admission webhook "<name>" denied the request: <message>`.
 */
import { isPlainObject } from '../api/field-errors.ts';
import type { JsonPatchOperation } from './json-patch.ts';

/** The request part of a review, as far as the webhook reads it. */
export interface AdmissionRequest {
  uid: string;
  operation: string;
  namespace?: string;
  name?: string;
  object: unknown;
  oldObject?: unknown;
  kind?: { group?: string; version?: string; kind?: string };
  /** The resource requested, e.g. `{ group: '', version: 'v1', resource: 'pods' }`. */
  resource?: { group?: string; version?: string; resource?: string };
  subResource?: string;
  dryRun?: boolean;
}

/** The response part of a review. */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  patchType?: 'JSONPatch';
  patch?: string;
  status?: { code: number; reason: string; message: string };
  warnings?: string[];
}

/** A review body that is not an AdmissionReview v1 request. */
export class BadReviewError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BadReviewError';
  }
}

/** Reads a parsed body as an AdmissionReview v1 request. Throws BadReviewError. */
export function readAdmissionRequest(body: unknown): AdmissionRequest {
  if (!isPlainObject(body)) throw new BadReviewError('the body is not a JSON object');
  if (body.apiVersion !== 'admission.k8s.io/v1' || body.kind !== 'AdmissionReview') {
    throw new BadReviewError(`expected apiVersion admission.k8s.io/v1 kind AdmissionReview, got ${String(body.apiVersion)} ${String(body.kind)}`);
  }
  const request = body.request;
  if (!isPlainObject(request) || typeof request.uid !== 'string' || request.uid === '') throw new BadReviewError('request.uid is missing');
  if (typeof request.operation !== 'string') throw new BadReviewError('request.operation is missing');
  return request as unknown as AdmissionRequest;
}

/** Wraps a response in an AdmissionReview. */
export function reviewResponse(response: AdmissionResponse): { apiVersion: string; kind: string; response: AdmissionResponse } {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response };
}

/** Allowed, with a JSON Patch when there are operations. */
export function allow(uid: string, patch: readonly JsonPatchOperation[] = [], warnings: string[] = []): AdmissionResponse {
  const response: AdmissionResponse = { uid, allowed: true };
  if (patch.length > 0) {
    response.patchType = 'JSONPatch';
    response.patch = Buffer.from(JSON.stringify(patch)).toString('base64');
  }
  if (warnings.length > 0) response.warnings = warnings;
  return response;
}

/** Denied with a code, reason and message. */
export function deny(uid: string, code: number, reason: string, message: string): AdmissionResponse {
  return { uid, allowed: false, status: { code, reason, message } };
}
