/**
 * The admission controller's status Lease, kept as upstream VPA keeps it (its pkg/utils/status):
 * a coordination.k8s.io/v1 Lease `vpa-admission-controller` in the components' namespace, which
 * the admission webhook renews every 10 s (holderIdentity: its pod, renewTime: now,
 * leaseDurationSeconds: the interval) and the updater reads before it evicts. An evicted pod comes
 * back through the webhook: without a live webhook it would come back with its old resources and
 * be evicted again, and again. Upstream's e2e suite writes this Lease itself to say "a webhook is
 * there" and deletes it to say "none is".
 *
 * Fresh, as upstream decides it: created or renewed less than the timeout (1 min) ago. E.g.
 * renewed at 12:00:00 with a 60 s timeout: fresh until 12:00:59.999, stale from 12:01:00; a Lease
 * created at 12:00:30 and not renewed since (upstream's first write sets no renewTime) is fresh
 * until 12:01:30. No Lease, or one that cannot be read: not fresh. Pure functions of the Lease
 * and `now`.
 */
import { V1MicroTime, type V1Lease } from '@kubernetes/client-node';
import { ADMISSION_STATUS_LEASE_NAME } from './admission-status-names.ts';

export { ADMISSION_STATUS_INTERVAL_MS, ADMISSION_STATUS_LEASE_NAME, ADMISSION_STATUS_TIMEOUT_MS } from './admission-status-names.ts';

/** What reading the Lease gave: the Lease, none (404), or why it could not be read. */
export type AdmissionStatusRead = { lease: V1Lease | undefined } | { error: string };

/** Whether evictions may go ahead, and a sentence saying why (for logs and the held decisions). */
export interface AdmissionStatusVerdict {
  fresh: boolean;
  message: string;
}

/** Milliseconds of a Lease time field (a Date or V1MicroTime from client-node, or a string); undefined if absent or unreadable. */
function ms(value: Date | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? undefined : t;
}

/** The verdict on the Lease at `now` (ms) with `timeoutMs` (upstream: 1 min). Pure. */
export function admissionStatusVerdict(read: AdmissionStatusRead, now: number, timeoutMs: number, where = ADMISSION_STATUS_LEASE_NAME): AdmissionStatusVerdict {
  if ('error' in read)
    return {
      fresh: false,
      message: `the admission webhook's status Lease ${where} cannot be read (${read.error}), so evictions wait: a pod evicted without the webhook would come back with its old resources`,
    };
  if (!read.lease)
    return {
      fresh: false,
      message: `no admission webhook status (Lease ${where} not found), so evictions wait: a pod evicted without the webhook would come back with its old resources`,
    };
  const created = ms(read.lease.metadata?.creationTimestamp);
  const renewed = ms(read.lease.spec?.renewTime);
  const latest = Math.max(created ?? -Infinity, renewed ?? -Infinity);
  if (latest + timeoutMs > now)
    return { fresh: true, message: `the admission webhook renewed its status Lease ${where} ${Math.max(0, Math.round((now - latest) / 1000))} s ago` };
  const when = Number.isFinite(latest) ? `last renewed ${new Date(latest).toISOString()}, more than ${Math.round(timeoutMs / 1000)} s ago` : 'never renewed';
  return {
    fresh: false,
    message: `the admission webhook's status Lease ${where} is stale (${when}), so evictions wait: a pod evicted without the webhook would come back with its old resources`,
  };
}

/**
 * The Lease to write at `now`: `current` renewed (its resourceVersion kept, so a concurrent write
 * by another replica is a 409 to ignore), or a new one. Only the holder, duration and renewTime
 * are written, as upstream does (a time read back as a millisecond Date would be refused as a
 * MicroTime). Pure.
 */
export function renewedStatusLease(
  current: V1Lease | undefined,
  target: { namespace: string; name: string; identity: string; intervalMs: number },
  now: number,
): V1Lease {
  const spec = {
    holderIdentity: target.identity,
    leaseDurationSeconds: Math.max(1, Math.round(target.intervalMs / 1000)),
    renewTime: new V1MicroTime(now),
  };
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: current?.metadata?.resourceVersion
      ? { name: target.name, namespace: target.namespace, resourceVersion: current.metadata.resourceVersion }
      : { name: target.name, namespace: target.namespace },
    spec,
  };
}
