/**
 * Never send a resize the API server will reject for a reason known beforehand
 * (reference: kubernetes-resize.md, "What the API server enforces on /resize").
 * `inPlaceBlocker` says why a pod cannot be resized in place at all; `resizeViolations` checks a
 * planned change against the rules a resize must keep. The planner drops a change that breaks one
 * (and says why) rather than sending it.
 */
import type { V1Pod, V1ResourceRequirements } from '@kubernetes/client-node';
import { QuantityError } from 'kube-basics/quantity';
import { readResourceValues, type ContainerResourceValues } from '../policy/container-values.ts';
import { hasPodLevelResources, podLevelViolations, POD_LEVEL } from '../policy/pod-level-resources.ts';
import { podQosClass, qosClassOf } from '../policy/qos.ts';
import { RESOURCE_NAMES } from '../model/types.ts';
import { nodeLacksResizeSupport, type ActualContainerResources } from './actual-resources.ts';
import type { ContainerChange } from './decision.ts';
import { resizeRestartPolicy } from './resize-path.ts';
import type { ServerCapabilities } from './server-capabilities.ts';

/** Why the pod cannot be resized in place, or undefined if it can. */
export function inPlaceBlocker(pod: V1Pod, containers: readonly ActualContainerResources[], capabilities: ServerCapabilities): string | undefined {
  const { major, minor } = capabilities.version;
  if (!capabilities.inPlaceResize) return `the API server (${major}.${minor}) does not support in-place resize`;
  const spec = pod.spec;
  if (hasPodLevelResources(pod) && !capabilities.podLevelResize)
    return `pod-level resources are resized in place only from Kubernetes 1.36 (the API server is ${major}.${minor})`;
  if (pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) return 'static pods cannot be resized';
  if (spec?.os?.name === 'windows') return 'Windows pods cannot be resized';
  if (nodeLacksResizeSupport(containers)) return 'the pod runs on a node without support for resize';
  return undefined;
}

/**
 * A container's spec values once the resize patch is applied: the patch writes the request and
 * the limit of each changed resource (where the change has one) and leaves the rest of the spec as
 * it is, which may differ from the actual values the change was computed from.
 */
export function specAfter(spec: ContainerResourceValues, change: ContainerChange | undefined): ContainerResourceValues {
  if (!change) return spec;
  const requests = { ...spec.requests };
  const limits = { ...spec.limits };
  for (const r of change.resources) {
    const request = change.to.requests[r];
    const limit = change.to.limits[r];
    if (request !== undefined) requests[r] = request;
    if (limit !== undefined) limits[r] = limit;
  }
  return { requests, limits };
}

/** The spec's resources a change applies to: a container's, or the pod-level ones for POD_LEVEL. */
export function specResourcesOf(pod: V1Pod, name: string): V1ResourceRequirements | undefined {
  if (name === POD_LEVEL) return pod.spec?.resources;
  return [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((c) => c.name === name)?.resources;
}

/** The values the QoS class is computed from after the changes (pod-level ones where set). Throws QuantityError. */
function qosValuesAfter(pod: V1Pod, changes: readonly ContainerChange[]): ContainerResourceValues[] {
  const byName = new Map(changes.map((c) => [c.containerName, c]));
  if (hasPodLevelResources(pod)) return [specAfter(readResourceValues(pod.spec?.resources), byName.get(POD_LEVEL))];
  return [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].map((c) => specAfter(readResourceValues(c.resources), byName.get(c.name)));
}

/** Floors for memory limits by container name (bytes; Infinity = never lower). */
export type MemoryFloors = Readonly<Record<string, number>>;

/**
 * The rules the changes break, as sentences (empty when the resize is safe to send):
 * no request or limit removed, requests <= limits, the QoS class unchanged, no memory limit
 * lowered where the server forbids it (1.33 without RestartContainer) or below the safety floor.
 */
export function resizeViolations(pod: V1Pod, changes: readonly ContainerChange[], capabilities: ServerCapabilities, floors: MemoryFloors): string[] {
  const out: string[] = [];
  const containers = new Map([...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].map((c) => [c.name, c]));
  for (const change of changes) {
    const name = change.containerName;
    const container = containers.get(name);
    let desired: ContainerResourceValues;
    try {
      desired = readResourceValues(specResourcesOf(pod, name));
    } catch (err) {
      if (!(err instanceof QuantityError)) throw err;
      out.push(`${name}: the spec's resources cannot be read (${err.message})`);
      continue;
    }
    for (const r of RESOURCE_NAMES) {
      const request = change.to.requests[r];
      const limit = change.to.limits[r];
      if (request === undefined && (change.from.requests[r] !== undefined || desired.requests[r] !== undefined))
        out.push(`${name}: ${r} request would be removed`);
      if (limit === undefined && (change.from.limits[r] !== undefined || desired.limits[r] !== undefined)) out.push(`${name}: ${r} limit would be removed`);
      if (request !== undefined && limit !== undefined && request > limit) out.push(`${name}: ${r} request ${request} above limit ${limit}`);
      for (const v of [request, limit])
        if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) out.push(`${name}: ${r} value ${v} is not a whole non-negative number`);
      const patched = specAfter(desired, change);
      const specRequest = patched.requests[r];
      const specLimit = patched.limits[r];
      if (
        specRequest !== undefined &&
        specLimit !== undefined &&
        specRequest > specLimit &&
        !(request !== undefined && limit !== undefined && request > limit)
      ) {
        out.push(`${name}: ${r} request ${specRequest} above limit ${specLimit} once applied to the spec`);
      }
    }
    if (change.kind === 'pod') out.push(...podLevelViolations(pod, specAfter(desired, change)));
    const before = change.from.limits.memory;
    const after = change.to.limits.memory;
    if (before !== undefined && after !== undefined && after < before) {
      if (capabilities.memoryLimitDecreaseNeedsRestart && resizeRestartPolicy(container, 'memory') !== 'RestartContainer') {
        out.push(
          `${name}: memory limits cannot be decreased unless resizePolicy is RestartContainer (server ${capabilities.version.major}.${capabilities.version.minor})`,
        );
      }
      const floor = floors[name] ?? Number.POSITIVE_INFINITY;
      if (after < Math.min(before, floor)) out.push(`${name}: memory limit ${after} below the safety floor ${Math.min(before, floor)}`);
    }
  }
  try {
    const held = podQosClass(pod);
    const next = qosClassOf(qosValuesAfter(pod, changes));
    if (next !== held) out.push(`Pod QOS Class may not change as a result of resizing (${held} -> ${next})`);
  } catch (err) {
    if (!(err instanceof QuantityError)) throw err;
    out.push(`the pod's resources cannot be read (${err.message})`);
  }
  return out;
}
