/**
 * The updater's read of the admission webhook's status Lease (kube/admission-status-lease.ts),
 * once per loop before planning, as upstream's updater does (`--use-admission-controller-status`):
 * while it is not fresh every eviction waits (`Wait AdmissionUnavailable`, updater-plan.ts),
 * because an evicted pod is recreated through the webhook and would come back with its old
 * resources. Resizes in place go on: they do not pass through the webhook. A Lease that cannot be
 * read counts as not fresh.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { coordinationApi } from '../kube/kube-apis.ts';
import { classifyApiError } from '../kube/errors.ts';
import type { AdmissionStatusRead } from '../kube/admission-status-lease.ts';

/** Where the loop reads the status from, and how old it may be. */
export interface AdmissionStatusSource {
  read(): Promise<AdmissionStatusRead>;
  timeoutMs: number;
  /** `namespace/name`, for messages. */
  where: string;
}

/** The Lease through the API: a 404 is "no webhook", any other failure is reported as unreadable. */
export function kubeAdmissionStatus(kubeConfig: KubeConfig, namespace: string, name: string, timeoutMs: number): AdmissionStatusSource {
  const api = coordinationApi(kubeConfig);
  return {
    timeoutMs,
    where: `${namespace}/${name}`,
    async read() {
      try {
        return { lease: await api.readNamespacedLease({ namespace, name }) };
      } catch (err) {
        const classified = classifyApiError(err);
        return classified.kind === 'notFound' ? { lease: undefined } : { error: classified.message };
      }
    },
  };
}
