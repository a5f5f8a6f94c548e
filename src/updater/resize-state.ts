/**
 * Where a pod's last resize stands, read from the pod object alone, so that an updater restart or
 * a leader change loses nothing.
 *
 * 1.33+ conditions (preferred when present):
 * - `PodResizePending` reason `Infeasible` / `Deferred` (message says why);
 * - `PodResizeInProgress`, with reason `Error` when actuation failed.
 * A condition whose `observedGeneration` is lower than `metadata.generation` describes an older
 * spec and is ignored (stale); when only stale conditions remain, or `status.observedGeneration`
 * lags `metadata.generation`, the kubelet has not seen the latest resize yet: `Proposed`.
 * `since` is the condition's `lastTransitionTime`. A pending reason other than the two known ones
 * is treated as `Deferred` (the kubelet retries it).
 *
 * Legacy `status.resize` (1.27-1.32): `Proposed`, `InProgress`, `Deferred`, `Infeasible`, `""`.
 * It carries no time; `since` is then undefined and the caller uses the pod's last-update time.
 */
import type { V1Pod, V1PodCondition } from '@kubernetes/client-node';
import { timeOf } from './object-time.ts';

/** The phases a resize goes through. `None`: no resize pending (none sent, or it completed). */
export type ResizePhase = 'None' | 'Proposed' | 'InProgress' | 'Deferred' | 'Infeasible' | 'Error';

/** A pod's resize state. */
export interface ResizeState {
  phase: ResizePhase;
  /** When the pod entered this phase (ms), if the object says. */
  since: number | undefined;
  /** The kubelet's message, e.g. "Node didn't have enough capacity: cpu, requested: 2500, capacity: 1930". */
  message: string | undefined;
  /** Where the state was read from. */
  source: 'conditions' | 'legacy' | 'none' | 'refusal';
}

export const POD_RESIZE_PENDING = 'PodResizePending';
export const POD_RESIZE_IN_PROGRESS = 'PodResizeInProgress';

const NONE: ResizeState = { phase: 'None', since: undefined, message: undefined, source: 'none' };

/** True if the condition describes the pod's current spec generation (or says nothing about it). */
function isCurrent(condition: V1PodCondition, generation: number | undefined): boolean {
  if (condition.observedGeneration === undefined || generation === undefined) return true;
  return condition.observedGeneration >= generation;
}

/** Reads the resize state of a pod. */
export function readResizeState(pod: V1Pod): ResizeState {
  const generation = pod.metadata?.generation;
  const conditions = (pod.status?.conditions ?? []).filter((c) => c.status === 'True');
  const sawResizeCondition = conditions.some((c) => c.type === POD_RESIZE_PENDING || c.type === POD_RESIZE_IN_PROGRESS);
  const current = conditions.filter((c) => isCurrent(c, generation));
  const state = (phase: ResizePhase, c: V1PodCondition): ResizeState => ({
    phase,
    since: timeOf(c.lastTransitionTime as Date | string | undefined),
    message: c.message || undefined,
    source: 'conditions',
  });

  const pending = current.find((c) => c.type === POD_RESIZE_PENDING);
  if (pending?.reason === 'Infeasible') return state('Infeasible', pending);
  // Deferred, or a reason this version does not know: the kubelet will retry, so wait like Deferred.
  if (pending) return state('Deferred', pending);
  const inProgress = current.find((c) => c.type === POD_RESIZE_IN_PROGRESS);
  if (inProgress) return state(inProgress.reason === 'Error' ? 'Error' : 'InProgress', inProgress);
  // Stale conditions only: a newer spec has not been looked at by the kubelet yet.
  const observed = pod.status?.observedGeneration;
  const unobserved = observed !== undefined && generation !== undefined && observed < generation;
  if (sawResizeCondition || unobserved) {
    return { phase: 'Proposed', since: undefined, message: 'the kubelet has not yet observed the latest spec', source: 'conditions' };
  }

  return legacyState(pod);
}

function legacyState(pod: V1Pod): ResizeState {
  const resize = pod.status?.resize;
  switch (resize) {
    case 'Proposed':
    case 'InProgress':
    case 'Deferred':
    case 'Infeasible':
      return { phase: resize, since: undefined, message: undefined, source: 'legacy' };
    default:
      return NONE;
  }
}
