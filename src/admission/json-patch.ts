/**
 * RFC 6902 JSON Patch operations as the webhook sends them (base64 in the AdmissionReview
 * response), and RFC 6901 pointer escaping: `~` -> `~0`, `/` -> `~1`, so the annotation key
 * `tailor.dev/vpa` is addressed as `/metadata/annotations/tailor.dev~1vpa`.
 */

/** One JSON Patch operation (only the ones the webhook uses). */
export type JsonPatchOperation = { op: 'add' | 'replace'; path: string; value: unknown };

/** Escapes one reference token of a JSON Pointer. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
