/**
 * Times read from Kubernetes objects. `@kubernetes/client-node` deserialises timestamps into
 * `Date`s, while objects parsed from plain JSON (watch caches, fixtures, kube-sim) carry RFC 3339
 * strings; both are accepted. Returns ms since the epoch, or undefined when absent or unreadable.
 */
import { parseRfc3339 } from '../api/rfc3339.ts';

/** `Date` or RFC 3339 string -> ms since the epoch; undefined if absent or malformed. */
export function timeOf(value: Date | string | undefined | null): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isFinite(ms) ? ms : undefined;
  }
  try {
    return parseRfc3339(value);
  } catch {
    return undefined;
  }
}
