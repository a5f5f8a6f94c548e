/** Small builders for pods, LimitRanges and VPA policies used by the policy tests. */
import type { V1Container, V1LimitRange, V1Pod, V1ResourceRequirements } from '@kubernetes/client-node';

/** `c('app', {cpu: '100m'}, {cpu: '200m'})`: a container with requests and limits. */
export function c(name: string, requests?: Record<string, string>, limits?: Record<string, string>): V1Container {
  const resources: V1ResourceRequirements = {};
  if (requests) resources.requests = requests;
  if (limits) resources.limits = limits;
  return { name, image: 'example', resources };
}

/** A pod with the given containers (and optional init containers). */
export function pod(containers: V1Container[], initContainers?: V1Container[]): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns' },
    spec: initContainers ? { containers, initContainers } : { containers },
  };
}

/** A LimitRange with one item of the given type. */
export function limitRange(
  type: 'Container' | 'Pod',
  item: { min?: Record<string, string>; max?: Record<string, string>; maxLimitRequestRatio?: Record<string, string> },
): V1LimitRange {
  return { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits: [{ type, ...item }] } };
}

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;
