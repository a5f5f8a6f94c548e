/**
 * The names and times of the admission controller's status Lease (admission-status-lease.ts), in a
 * module of their own so that the option tables read them without loading the Kubernetes client at
 * start-up.
 */

/** Upstream's `status.AdmissionControllerStatusName`. */
export const ADMISSION_STATUS_LEASE_NAME = 'vpa-admission-controller';
/** Upstream's `AdmissionControllerStatusTimeout`: the updater's freshness limit. */
export const ADMISSION_STATUS_TIMEOUT_MS = 60_000;
/** Upstream's `--status-lease-update-interval`: how often the webhook renews. */
export const ADMISSION_STATUS_INTERVAL_MS = 10_000;
