/**
 * A container's cpu and memory requests and limits as numbers (millicores, bytes), read from a
 * `V1ResourceRequirements`. Reading applies the API server's defaulting: a resource with a limit
 * but no request has a request equal to the limit. Other resources (ephemeral-storage, GPUs) are
 * not read here and are never changed by the policy.
 */
import type { V1ResourceRequirements } from '@kubernetes/client-node';
import { parseCpu, parseMemory } from 'kube-basics/quantity';
import type { ResourceAmounts } from '../api/vpa-quantities.ts';
import { RESOURCE_NAMES, type ResourceName } from 'kube-basics/resources';

/** A container's requests and limits for cpu (millicores) and memory (bytes). */
export interface ContainerResourceValues {
  requests: ResourceAmounts;
  limits: ResourceAmounts;
}

/** Parses a quantity of a resource. Throws QuantityError on a malformed one. */
export function parseAmount(resource: ResourceName, quantity: string): number {
  return resource === 'cpu' ? parseCpu(quantity) : parseMemory(quantity);
}

/** Reads requests and limits, defaulting a missing request to the limit. Throws QuantityError. */
export function readResourceValues(resources: V1ResourceRequirements | undefined): ContainerResourceValues {
  const requests: ResourceAmounts = {};
  const limits: ResourceAmounts = {};
  for (const name of RESOURCE_NAMES) {
    const limit = resources?.limits?.[name];
    const request = resources?.requests?.[name] ?? limit;
    if (limit !== undefined) limits[name] = parseAmount(name, limit);
    if (request !== undefined) requests[name] = parseAmount(name, request);
  }
  return { requests, limits };
}

/** True if the two have the same requests and limits for cpu and memory. */
export function sameValues(a: ContainerResourceValues, b: ContainerResourceValues): boolean {
  return RESOURCE_NAMES.every((r) => a.requests[r] === b.requests[r] && a.limits[r] === b.limits[r]);
}
