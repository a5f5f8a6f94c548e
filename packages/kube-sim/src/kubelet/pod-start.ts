/**
 * The kubelet starting a pod bound to its node: containers running, `allocatedResources` and
 * `resources` reported (unless the node lacks resize support; from 1.36 the pod's own too,
 * pod-level-status.ts), phase Running, Ready conditions.
 */
import type { Container, ContainerStatus, Pod, PodStatus, ResourceRequirements } from '../objects.ts';
import { isSidecar } from '../pod-resources.ts';
import { computeQosClass } from '../qos.ts';
import { rfc3339, setCondition } from './conditions.ts';
import { podRef, type SimEvent } from './kubelet-event.ts';
import type { ServerVersion } from '../server-version.ts';
import { resizesPodLevelResources, usesResizeConditions } from '../server-version.ts';
import { podAllocatedResources, podStatusResources } from './pod-level-status.ts';

export interface NodeRuntime {
  nodeName: string;
  /** False for a node whose kubelet predates resize: container statuses carry no `resources`. */
  resizeSupport: boolean;
  /** An IP for `status.hostIP`. */
  hostIP: string;
}

/** The cpu/memory part of a container's resources, as the kubelet reports them. */
export function cpuMemory(resources: ResourceRequirements | undefined): ResourceRequirements {
  const pick = (list: Record<string, string> | undefined) => {
    if (!list) return undefined;
    const out: Record<string, string> = {};
    if (list.cpu !== undefined) out.cpu = list.cpu;
    if (list.memory !== undefined) out.memory = list.memory;
    return Object.keys(out).length > 0 ? out : undefined;
  };
  const requests = pick(resources?.requests);
  const limits = pick(resources?.limits);
  return { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) };
}

/** A fresh running container status for `container`, started at `now`. */
export function runningStatus(pod: Pod, container: Container, node: NodeRuntime, now: number, restartCount = 0): ContainerStatus {
  const applied = cpuMemory(container.resources);
  return {
    name: container.name,
    image: container.image ?? '',
    imageID: `sim://${container.image ?? 'image'}`,
    containerID: `sim://${pod.metadata.uid ?? pod.metadata.name}-${container.name}-${restartCount}`,
    ready: true,
    started: true,
    restartCount,
    state: { running: { startedAt: rfc3339(now) } },
    ...(applied.requests ? { allocatedResources: { ...applied.requests } } : { allocatedResources: {} }),
    ...(node.resizeSupport ? { resources: applied } : {}),
  };
}

/** The status of a newly started pod, and the events the kubelet records for it. */
export function startPod(pod: Pod, node: NodeRuntime, now: number, version: ServerVersion): { status: PodStatus; events: SimEvent[] } {
  let status: PodStatus = {
    ...(pod.status ?? {}),
    phase: 'Running',
    qosClass: pod.status?.qosClass ?? computeQosClass(pod),
    hostIP: node.hostIP,
    podIP: fakePodIP(pod),
    startTime: rfc3339(now),
    containerStatuses: pod.spec.containers.map((c) => runningStatus(pod, c, node, now)),
  };
  const sidecars = (pod.spec.initContainers ?? []).filter(isSidecar);
  if (sidecars.length > 0) status.initContainerStatuses = sidecars.map((c) => runningStatus(pod, c, node, now));
  if (usesResizeConditions(version)) status.observedGeneration = pod.metadata.generation ?? 1;
  if (resizesPodLevelResources(version) && node.resizeSupport) {
    status.allocatedResources = podAllocatedResources(pod);
    status.resources = podStatusResources(pod, version);
  }
  for (const type of ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']) {
    status = setCondition(
      status,
      { type, status: 'True', ...(usesResizeConditions(version) ? { observedGeneration: pod.metadata.generation ?? 1 } : {}) },
      now,
    );
  }
  const events: SimEvent[] = [];
  for (const c of pod.spec.containers) {
    events.push({
      type: 'Normal',
      reason: 'Pulled',
      message: `Container image "${c.image ?? ''}" already present on machine`,
      involvedObject: podRef(pod, c.name),
      component: 'kubelet',
      host: node.nodeName,
    });
    events.push({
      type: 'Normal',
      reason: 'Created',
      message: `Created container: ${c.name}`,
      involvedObject: podRef(pod, c.name),
      component: 'kubelet',
      host: node.nodeName,
    });
    events.push({
      type: 'Normal',
      reason: 'Started',
      message: `Started container ${c.name}`,
      involvedObject: podRef(pod, c.name),
      component: 'kubelet',
      host: node.nodeName,
    });
  }
  return { status, events };
}

/** A stable fake pod IP from the pod uid (10.244.x.y). */
function fakePodIP(pod: Pod): string {
  const key = pod.metadata.uid ?? pod.metadata.name ?? '';
  let h = 0;
  for (const ch of key) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `10.244.${(h >>> 8) % 250}.${(h % 250) + 2}`;
}
