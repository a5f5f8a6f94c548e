/**
 * Reads and writes one coordination.k8s.io/v1 Lease through Tailor's request layer (kube-apis.ts): the port the
 * leader elector uses. Updates carry the resourceVersion read, so a concurrent writer makes the
 * server answer 409 Conflict instead of one write silently replacing the other.
 */
import { V1MicroTime, type KubeConfig, type V1Lease } from '@kubernetes/client-node';
import { coordinationApi, type CoordinationApi } from './kube-apis.ts';
import type { LeaseRecord, LeaseSnapshot } from './lease-decision.ts';
import { classifyApiError, KubeApiError } from './errors.ts';

/** The field manager of Tailor's Lease writes. */
export const LEASE_FIELD_MANAGER = 'tailor-leader-election';

/** One Lease. Failures are thrown as {@link KubeApiError}. */
export interface LeaseStore {
  /** Undefined when the Lease does not exist. */
  get(): Promise<LeaseSnapshot | undefined>;
  create(record: LeaseRecord): Promise<LeaseSnapshot>;
  update(record: LeaseRecord, resourceVersion: string): Promise<LeaseSnapshot>;
  /** `namespace/name`, for logs. */
  readonly where: string;
}

/** The API server implementation. */
export class KubeLeaseStore implements LeaseStore {
  private readonly api: CoordinationApi;
  readonly where: string;

  constructor(
    kubeConfig: KubeConfig,
    private readonly namespace: string,
    private readonly name: string,
  ) {
    this.api = coordinationApi(kubeConfig);
    this.where = `${namespace}/${name}`;
  }

  async get(): Promise<LeaseSnapshot | undefined> {
    try {
      return snapshot(await this.api.readNamespacedLease({ name: this.name, namespace: this.namespace }));
    } catch (err) {
      if (classifyApiError(err).kind === 'notFound') return undefined;
      throw new KubeApiError(`read lease ${this.where}`, err);
    }
  }

  async create(record: LeaseRecord): Promise<LeaseSnapshot> {
    try {
      return snapshot(await this.api.createNamespacedLease({ namespace: this.namespace, body: this.lease(record), fieldManager: LEASE_FIELD_MANAGER }));
    } catch (err) {
      throw new KubeApiError(`create lease ${this.where}`, err);
    }
  }

  async update(record: LeaseRecord, resourceVersion: string): Promise<LeaseSnapshot> {
    try {
      const body = this.lease(record);
      body.metadata!.resourceVersion = resourceVersion;
      return snapshot(await this.api.replaceNamespacedLease({ name: this.name, namespace: this.namespace, body, fieldManager: LEASE_FIELD_MANAGER }));
    } catch (err) {
      throw new KubeApiError(`update lease ${this.where}`, err);
    }
  }

  private lease(record: LeaseRecord): V1Lease {
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.name, namespace: this.namespace },
      spec: {
        holderIdentity: record.holderIdentity,
        leaseDurationSeconds: record.leaseDurationSeconds,
        // MicroTime: the apiserver parses exactly six fractional digits and refuses a plain Date's
        // three (400 "cannot parse \".491Z\" as \".000000\""); client-node's V1MicroTime writes six.
        acquireTime: new V1MicroTime(record.acquireTime),
        renewTime: new V1MicroTime(record.renewTime),
        leaseTransitions: record.leaseTransitions,
      },
    };
  }
}

function time(value: Date | string | undefined): number {
  if (value === undefined) return 0;
  const t = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isFinite(t) ? t : 0;
}

function snapshot(lease: V1Lease): LeaseSnapshot {
  const spec = lease.spec ?? {};
  return {
    resourceVersion: lease.metadata?.resourceVersion ?? '',
    record: {
      holderIdentity: spec.holderIdentity ?? '',
      leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
      acquireTime: time(spec.acquireTime),
      renewTime: time(spec.renewTime),
      leaseTransitions: spec.leaseTransitions ?? 0,
    },
  };
}
