/**
 * The pure part of leader election on a coordination.k8s.io/v1 Lease, with client-go's rules.
 *
 * A candidate never trusts the other replica's clock: a Lease held by someone else counts as
 * expired when `leaseDurationSeconds` have passed on OUR clock since we first saw its current
 * version (`observedAt`), not since its `renewTime`. Worked example: lease duration 15 s; we see
 * version "41" at t = 100 s and it never changes: at t = 114.9 s it is still held, at t = 115 s we
 * may take it. A released Lease (empty holder) may be taken at once.
 */

/** The election-relevant fields of a Lease spec (times in ms since the epoch). */
export interface LeaseRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: number;
  renewTime: number;
  leaseTransitions: number;
}

/** A Lease as read, with its resourceVersion for optimistic concurrency. */
export interface LeaseSnapshot {
  record: LeaseRecord;
  resourceVersion: string;
}

/** What to write next. */
export type LeaseAction =
  | { kind: 'create'; record: LeaseRecord }
  | { kind: 'renew'; record: LeaseRecord }
  | { kind: 'acquire'; record: LeaseRecord }
  | { kind: 'held'; holder: string; expiresAt: number };

/**
 * The next step for `identity` given the Lease (undefined = none exists), when we first saw its
 * current version, and the time.
 */
export function leaseAction(current: LeaseSnapshot | undefined, observedAt: number, identity: string, now: number, leaseDurationMs: number): LeaseAction {
  const seconds = Math.round(leaseDurationMs / 1000);
  if (current === undefined) {
    return { kind: 'create', record: { holderIdentity: identity, leaseDurationSeconds: seconds, acquireTime: now, renewTime: now, leaseTransitions: 0 } };
  }
  const r = current.record;
  if (r.holderIdentity === identity) {
    return { kind: 'renew', record: { ...r, leaseDurationSeconds: seconds, renewTime: now } };
  }
  const expiresAt = observedAt + r.leaseDurationSeconds * 1000;
  if (r.holderIdentity !== '' && now < expiresAt) return { kind: 'held', holder: r.holderIdentity, expiresAt };
  return {
    kind: 'acquire',
    record: { holderIdentity: identity, leaseDurationSeconds: seconds, acquireTime: now, renewTime: now, leaseTransitions: r.leaseTransitions + 1 },
  };
}

/** The record written on a graceful release: no holder, a 1 s duration (as client-go). */
export function releasedRecord(current: LeaseRecord, now: number): LeaseRecord {
  return { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: current.leaseTransitions };
}
