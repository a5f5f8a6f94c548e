/** Builders for the admission tests: pods owned by ReplicaSets, VPAs as cached, lookups. */
import type { V1Container, V1LimitRange, V1Pod } from '@kubernetes/client-node';
import { formatFieldErrors } from '../../src/api/field-errors.ts';
import { validateVpa } from '../../src/api/validate-vpa.ts';
import type { CachedVpa, PodAdmissionView } from '../../src/admission/pod-admission.ts';
import type { ControllerLookup, OwnerRef } from '../../src/admission/top-most-owner.ts';

/** A container with requests and limits. */
export function container(name: string, requests?: Record<string, string>, limits?: Record<string, string>): V1Container {
  const resources: V1Container['resources'] = {};
  if (requests) resources.requests = requests;
  if (limits) resources.limits = limits;
  return { name, image: 'nginx', resources };
}

/** A pod of Deployment `web` (ReplicaSet web-5d8f7), named by generateName as a ReplicaSet makes it. */
export function webPod(containers: V1Container[], extra: Partial<V1Pod['metadata']> = {}): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: 'web-5d8f7-',
      namespace: 'shop',
      labels: { app: 'web', 'pod-template-hash': '5d8f7' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d8f7', uid: 'rs-uid', controller: true }],
      ...extra,
    },
    spec: { containers },
  };
}

/** A raw VPA object for Deployment `target` with a recommendation per container. */
export function vpaObject(
  name: string,
  target: string,
  recs: Record<string, Record<string, string>>,
  spec: Record<string, unknown> = {},
  createdAt = '2026-01-01T00:00:00Z',
): Record<string, unknown> {
  return {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name, namespace: 'shop', creationTimestamp: createdAt },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, updatePolicy: { updateMode: 'Recreate' }, ...spec },
    status: { recommendation: { containerRecommendations: Object.entries(recs).map(([containerName, t]) => ({ containerName, target: t })) } },
  };
}

/** The VPA as the cluster view caches it (validated). */
export function cached(object: Record<string, unknown>): CachedVpa {
  const result = validateVpa(object);
  const meta = object.metadata as CachedVpa['metadata'];
  return {
    metadata: meta,
    spec: object.spec as CachedVpa['spec'],
    valid: result.ok ? result.vpa : undefined,
    ...(result.ok ? {} : { problems: formatFieldErrors(result.errors) }),
  };
}

/** ReplicaSet web-5d8f7 belongs to Deployment web. */
export const deploymentLookup: ControllerLookup = (kind, _ns, name): OwnerRef | null | undefined =>
  kind === 'ReplicaSet' && name === 'web-5d8f7' ? { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } : undefined;

export function view(vpas: CachedVpa[], limitRanges: V1LimitRange[] = [], controllerOf: ControllerLookup = deploymentLookup): PodAdmissionView {
  return { vpas, limitRanges, controllerOf };
}
