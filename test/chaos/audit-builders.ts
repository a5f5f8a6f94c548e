/** Audit log lines for the chaos checker's tests, as kube-apiserver writes them (audit.k8s.io/v1 Event, JSON). */

export const UPDATER = 'system:serviceaccount:tailor-system:tailor-updater';

export interface AuditLineOptions {
  verb: 'patch' | 'create' | 'delete' | 'get';
  pod: string;
  /** RFC 3339 stageTimestamp. */
  at: string;
  subresource?: string;
  namespace?: string;
  stage?: string;
  code?: number;
  message?: string;
  user?: string;
  /** The pod the token is bound to; null for none. */
  senderPod?: string | null;
  request?: unknown;
}

/** One audit Event as a JSON line. */
export function auditLine(o: AuditLineOptions): string {
  const senderPod = o.senderPod === undefined ? 'tailor-updater-1' : o.senderPod;
  const code = o.code ?? 200;
  return JSON.stringify({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Request',
    auditID: `${o.pod}-${o.at}`,
    stage: o.stage ?? 'ResponseComplete',
    requestURI: `/api/v1/namespaces/${o.namespace ?? 'shop'}/pods/${o.pod}${o.subresource ? `/${o.subresource}` : ''}`,
    verb: o.verb,
    user: {
      username: o.user ?? UPDATER,
      groups: ['system:serviceaccounts', 'system:authenticated'],
      ...(senderPod ? { extra: { 'authentication.kubernetes.io/pod-name': [senderPod] } } : {}),
    },
    userAgent: 'tailor/0.1.0',
    objectRef: { resource: 'pods', namespace: o.namespace ?? 'shop', name: o.pod, apiVersion: 'v1', ...(o.subresource ? { subresource: o.subresource } : {}) },
    responseStatus: { metadata: {}, code, ...(o.message ? { message: o.message } : {}) },
    ...(o.request ? { requestObject: o.request } : {}),
    requestReceivedTimestamp: o.at,
    stageTimestamp: o.at,
  });
}

/** A successful renewal of the updater's leader Lease (tailor-system/tailor-updater) by `holder`, at `at` (RFC 3339). */
export function leaseLine(holder: string, at: string, o: { code?: number; name?: string } = {}): string {
  return JSON.stringify({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: `lease-${holder}-${at}`,
    stage: 'ResponseComplete',
    requestURI: `/apis/coordination.k8s.io/v1/namespaces/tailor-system/leases/${o.name ?? 'tailor-updater'}`,
    verb: 'update',
    user: { username: UPDATER, extra: { 'authentication.kubernetes.io/pod-name': [holder] } },
    objectRef: { resource: 'leases', namespace: 'tailor-system', name: o.name ?? 'tailor-updater', apiGroup: 'coordination.k8s.io', apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: o.code ?? 200 },
    requestReceivedTimestamp: at,
    stageTimestamp: at,
  });
}
