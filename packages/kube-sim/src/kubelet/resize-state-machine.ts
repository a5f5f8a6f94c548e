/**
 * The kubelet's handling of an in-place resize, as a pure step function
 * `(pod, checkpoint, context) -> (status, checkpoint, events, wake-up time)`.
 *
 * The checkpoint is what the kubelet has allocated to each container (cpu/memory requests and
 * limits) and when actuation started. One step:
 * 1. spec == allocation: nothing requested; a pending condition is dropped.
 * 2. spec != allocation: admit (see resize-admission.ts). Infeasible/Deferred -> `PodResizePending`
 *    (1.32: `status.resize`); deferred resizes are retried by calling step again when room frees.
 *    Fits -> allocation := spec, `allocatedResources` updated, containers whose changed resource has
 *    `RestartContainer` restart at once (event Killing), others get `PodResizeInProgress` and (1.34+)
 *    the event ResizeStarted; on 1.34+ a memory limit below current usage makes it reason `Error`.
 * 3. allocation != applied `resources`: after the actuation delay the new values are applied,
 *    `PodResizeInProgress` is removed and ResizeCompleted recorded.
 * From 1.36 pod-level resources (`spec.resources`) are part of the allocation (under the key
 * {@link POD_LEVEL}, no container's name): the pod's `status.allocatedResources` follows the
 * allocation and its `status.resources` the actuation (pod-level-status.ts); the events' summaries
 * name only the containers, as the real kubelet's do.
 */
import type { Resources } from 'kube-basics/resources';
import { clone, type Container, type ContainerStatus, type Pod, type PodStatus, type ResourceRequirements } from '../objects.ts';
import { isSidecar, podRequests } from '../pod-resources.ts';
import { parseMemory } from 'kube-basics/quantity';
import { kubeletChecksMemoryDecrease, recordsResizeEvents, resizesPodLevelResources, usesResizeConditions, type ServerVersion } from '../server-version.ts';
import { podStatusOnAllocation, podStatusResources } from './pod-level-status.ts';
import { removeCondition, setCondition } from './conditions.ts';
import { podRef, type SimEvent } from './kubelet-event.ts';
import { admitResize } from './resize-admission.ts';
import { cpuMemory } from './pod-start.ts';
import { RESTARTED_FOR_RESIZE, restartContainer } from './container-restart.ts';

/** cpu/memory requests and limits per container name (and the pod's own under {@link POD_LEVEL}). */
export type Allocation = Record<string, ResourceRequirements>;

/** The allocation's key for the pod-level resources (a container's name is never empty). */
export const POD_LEVEL = '';

/** What the kubelet remembers about one pod between steps. */
export interface ResizeCheckpoint {
  allocation: Allocation;
  /** The pod-level resources its cgroup holds (1.36+, pods with pod-level resources). */
  podApplied?: ResourceRequirements;
  /** Simulated time (ms) at which the current actuation started. */
  actuationStartedAt?: number;
}

export interface ResizeContext {
  nodeName: string;
  allocatable: Resources;
  /** Requests allocated to the other pods on the node (millicores, bytes). */
  othersAllocated: Resources;
  /** Current memory working set of a container, if known (bytes). */
  memoryUsage: (container: string) => number | undefined;
  version: ServerVersion;
  now: number;
  /** How long applying a resize takes (simulated ms). */
  actuationDelayMs: number;
}

export interface ResizeStep {
  status: PodStatus;
  checkpoint: ResizeCheckpoint;
  events: SimEvent[];
  /** When the next step is due (actuation end), if any. */
  wakeAt?: number;
}

export const POD_RESIZE_PENDING = 'PodResizePending';
export const POD_RESIZE_IN_PROGRESS = 'PodResizeInProgress';

/** The containers whose resources the kubelet manages: app containers and sidecars. */
function resizable(pod: Pod): Container[] {
  return [...(pod.spec.initContainers ?? []).filter(isSidecar), ...pod.spec.containers];
}

/** The allocation the spec asks for; pod-level resources from 1.36. */
export function desiredAllocation(pod: Pod, version: ServerVersion): Allocation {
  const allocation: Allocation = Object.fromEntries(resizable(pod).map((c) => [c.name, cpuMemory(c.resources)]));
  const podLevel = cpuMemory(pod.spec.resources);
  if (resizesPodLevelResources(version) && Object.keys(podLevel).length > 0) allocation[POD_LEVEL] = podLevel;
  return allocation;
}

/** The checkpoint of a pod the kubelet has just started with its spec. */
export function startedCheckpoint(pod: Pod, version: ServerVersion): ResizeCheckpoint {
  const allocation = desiredAllocation(pod, version);
  return { allocation, ...(allocation[POD_LEVEL] ? { podApplied: allocation[POD_LEVEL] } : {}) };
}

function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
}

/** Maps over app and sidecar container statuses. */
function mapStatuses(status: PodStatus, fn: (s: ContainerStatus) => ContainerStatus): PodStatus {
  return {
    ...status,
    containerStatuses: status.containerStatuses?.map(fn),
    ...(status.initContainerStatuses ? { initContainerStatuses: status.initContainerStatuses.map(fn) } : {}),
  };
}

function resizeSummary(pod: Pod, allocation: Allocation): string {
  const containers = resizable(pod).map((c) => ({ name: c.name, resources: allocation[c.name] ?? {} }));
  return JSON.stringify({ containers, generation: pod.metadata.generation ?? 1 });
}

/** One kubelet step for a pod's resize; see the module comment. */
export function stepResize(pod: Pod, checkpoint: ResizeCheckpoint, ctx: ResizeContext): ResizeStep {
  const conditions = usesResizeConditions(ctx.version);
  const generation = pod.metadata.generation ?? 1;
  const events: SimEvent[] = [];
  const desired = desiredAllocation(pod, ctx.version);
  // Fast path: nothing asked, nothing under way, nothing to report.
  const quiet =
    checkpoint.actuationStartedAt === undefined &&
    pod.status?.resize === undefined &&
    !pod.status?.conditions?.some((c) => c.type === POD_RESIZE_PENDING || c.type === POD_RESIZE_IN_PROGRESS) &&
    (!conditions || pod.status?.observedGeneration === generation);
  if (quiet && same(desired, checkpoint.allocation)) return { status: pod.status ?? {}, checkpoint, events };
  let status: PodStatus = clone(pod.status ?? {});
  let next: ResizeCheckpoint = { ...checkpoint };
  if (conditions) status.observedGeneration = generation;

  const setPending = (reason: 'Infeasible' | 'Deferred', message: string) => {
    if (conditions) status = setCondition(status, { type: POD_RESIZE_PENDING, status: 'True', reason, message, observedGeneration: generation }, ctx.now);
    else status.resize = reason;
  };
  const setInProgress = (error?: string) => {
    if (conditions) {
      status = setCondition(
        status,
        { type: POD_RESIZE_IN_PROGRESS, status: 'True', ...(error ? { reason: 'Error', message: error } : {}), observedGeneration: generation },
        ctx.now,
      );
      if (!error) status.conditions = status.conditions!.map((c) => (c.type === POD_RESIZE_IN_PROGRESS ? withoutReason(c) : c));
    } else status.resize = 'InProgress';
  };
  let pending = false;
  const finishInProgress = () => {
    status = removeCondition(status, POD_RESIZE_IN_PROGRESS);
    if (!pending) delete status.resize;
  };
  const wasInProgress = inProgress(status, checkpoint);
  let started = false;

  if (!same(desired, checkpoint.allocation)) {
    const fit = admitResize(podRequests(pod), ctx.allocatable, ctx.othersAllocated);
    if (!fit.fits) {
      setPending(fit.reason, fit.message);
      pending = true;
    } else {
      status = removeCondition(status, POD_RESIZE_PENDING);
      const previous = checkpoint.allocation;
      next = { allocation: desired, actuationStartedAt: ctx.now };
      started = true;
      status = mapStatuses(status, (s) => (desired[s.name] ? { ...s, allocatedResources: { ...(desired[s.name]!.requests ?? {}) } } : s));
      if (resizesPodLevelResources(ctx.version)) status = podStatusOnAllocation(status, pod, ctx.version);
      // Containers whose changed resource asks for a restart are restarted with the new values now.
      for (const c of resizable(pod)) {
        if (!needsRestart(c, previous[c.name], desired[c.name])) continue;
        events.push({
          type: 'Normal',
          reason: 'Killing',
          message: `Container ${c.name} resize requires restart`,
          involvedObject: podRef(pod, c.name),
          component: 'kubelet',
          host: ctx.nodeName,
        });
        status = mapStatuses(status, (s) => (s.name === c.name ? restartContainer(s, RESTARTED_FOR_RESIZE, ctx.now, desired[c.name]) : s));
      }
      if (recordsResizeEvents(ctx.version))
        events.push({
          type: 'Normal',
          reason: 'ResizeStarted',
          message: `Pod resize started: ${resizeSummary(pod, desired)}`,
          involvedObject: podRef(pod),
          component: 'kubelet',
          host: ctx.nodeName,
        });
    }
  } else {
    status = removeCondition(status, POD_RESIZE_PENDING);
  }

  // Actuation: the applied resources catch up with the allocation after the delay.
  const completed = (): ResizeStep => {
    finishInProgress();
    delete next.actuationStartedAt;
    if ((started || wasInProgress) && recordsResizeEvents(ctx.version)) {
      events.push({
        type: 'Normal',
        reason: 'ResizeCompleted',
        message: `Pod resize completed: ${resizeSummary(pod, next.allocation)}`,
        involvedObject: podRef(pod),
        component: 'kubelet',
        host: ctx.nodeName,
      });
    }
    return { status, checkpoint: next, events };
  };
  const applied = appliedAllocation(status, next);
  if (applied === undefined || same(applied, next.allocation)) return completed();

  const error = kubeletChecksMemoryDecrease(ctx.version) ? memoryDecreaseError(pod, applied, next.allocation, ctx) : undefined;
  if (error) {
    setInProgress(error);
    next.actuationStartedAt = undefined;
    return { status, checkpoint: next, events };
  }
  const startedAt = next.actuationStartedAt ?? ctx.now;
  next.actuationStartedAt = startedAt;
  if (ctx.now < startedAt + ctx.actuationDelayMs) {
    setInProgress();
    return { status, checkpoint: next, events, wakeAt: startedAt + ctx.actuationDelayMs };
  }
  status = mapStatuses(status, (s) => (next.allocation[s.name] && s.resources !== undefined ? { ...s, resources: clone(next.allocation[s.name]!) } : s));
  if (next.allocation[POD_LEVEL] !== undefined) next.podApplied = clone(next.allocation[POD_LEVEL]);
  if (resizesPodLevelResources(ctx.version) && status.resources !== undefined) status.resources = podStatusResources(pod, ctx.version, status.resources);
  return completed();
}

function withoutReason<T extends { reason?: string; message?: string }>(c: T): T {
  const out = { ...c };
  delete out.reason;
  delete out.message;
  return out;
}

function hasCondition(status: PodStatus, type: string): boolean {
  return Boolean(status.conditions?.some((c) => c.type === type));
}

function inProgress(status: PodStatus, checkpoint: ResizeCheckpoint): boolean {
  return hasCondition(status, POD_RESIZE_IN_PROGRESS) || status.resize === 'InProgress' || checkpoint.actuationStartedAt !== undefined;
}

/** The resources the runtime has applied per container (and to the pod's cgroup), or undefined on a node without resize support. */
function appliedAllocation(status: PodStatus, checkpoint: ResizeCheckpoint): Allocation | undefined {
  const all = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])];
  if (all.some((s) => s.resources === undefined)) return undefined;
  const applied: Allocation = Object.fromEntries(all.map((s) => [s.name, cpuMemory(s.resources)]));
  if (checkpoint.podApplied !== undefined) applied[POD_LEVEL] = checkpoint.podApplied;
  return applied;
}

/** A container restarts when a resource that changed has resizePolicy RestartContainer. */
function needsRestart(c: Container, before: ResourceRequirements | undefined, after: ResourceRequirements | undefined): boolean {
  return ['cpu', 'memory'].some((r) => {
    const changed = before?.requests?.[r] !== after?.requests?.[r] || before?.limits?.[r] !== after?.limits?.[r];
    const policy = c.resizePolicy?.find((p) => p.resourceName === r)?.restartPolicy;
    return changed && policy === 'RestartContainer';
  });
}

/** 1.34+: lowering a memory limit below current usage fails (the kubelet does not OOM-kill). */
function memoryDecreaseError(pod: Pod, applied: Allocation, allocation: Allocation, ctx: ResizeContext): string | undefined {
  for (const c of resizable(pod)) {
    const newLimit = allocation[c.name]?.limits?.memory;
    const oldLimit = applied[c.name]?.limits?.memory;
    if (newLimit === undefined) continue;
    const limit = parseMemory(newLimit);
    if (oldLimit !== undefined && limit >= parseMemory(oldLimit)) continue;
    const usage = ctx.memoryUsage(c.name);
    if (usage !== undefined && usage > limit) {
      return `attempting to set container "${c.name}" memory limit (${limit}) below current usage (${Math.round(usage)})`;
    }
  }
  return undefined;
}
