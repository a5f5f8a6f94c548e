/**
 * What the planner decides for one pod, with the reason. Expected outcomes (skip, wait) are values
 * with a reason, never exceptions; the executor carries out `ResizeInPlace`, `ResizeWithRestart`
 * and `Evict`, and reports every decision in logs, events and metrics by its `reason` code.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ContainerResourceValues } from '../policy/container-values.ts';
import type { ResourceName } from '../model/types.ts';

/** What to do with the pod. */
export type DecisionAction = 'Skip' | 'ResizeInPlace' | 'ResizeWithRestart' | 'Evict' | 'Wait';

/** Why. Stable codes for metrics, events and tests. */
export type DecisionReason =
  // skip
  | 'UpdateModeOff'
  | 'UpdateModeInitial'
  | 'PodTerminating'
  | 'PodNotRunning'
  | 'NoRecommendation'
  | 'InvalidRecommendation'
  | 'HpaConflict'
  | 'PolicyLeftAlone'
  | 'WithinBounds'
  | 'UpToDate'
  | 'InPlaceUnsupported'
  | 'RestartNotAllowed'
  | 'EvictionRequirementsNotMet'
  | 'WouldBeRejected'
  | 'StartSizedMemory'
  | 'InvalidAnnotation'
  | 'StartupBoostStuck'
  // triggers (act)
  | 'OutsideBounds'
  | 'Drift'
  | 'OomKilled'
  | 'MemoryPressure'
  | 'StartupBoostEnded'
  // following a resize
  | 'ResizeProposed'
  | 'ResizeInProgress'
  | 'ResizeDeferred'
  | 'ResizeInfeasible'
  | 'ResizeStuck'
  | 'ResizeSuperseded'
  | 'FallbackInfeasible'
  | 'FallbackDeferredTimeout'
  | 'FallbackInProgressTimeout'
  | 'FallbackError'
  | 'FallbackInPlaceUnsupported'
  | 'FallbackNotRunning'
  | 'ContainerNotRunning'
  // a start-up cpu boost still running
  | 'StartupBoost'
  // pacing and budgets (from plan())
  | 'Cooldown'
  | 'Canary'
  | 'MinReplicas'
  | 'DisruptionBudget'
  | 'DisruptionWindow'
  | 'RateLimited'
  // evictions while the admission webhook's status Lease is not fresh (admission-status.ts)
  | 'AdmissionUnavailable';

/** One container's change. */
export interface ContainerChange {
  /** The container's name; POD_LEVEL (src/policy/pod-level-resources.ts) for the pod-level values. */
  containerName: string;
  /** `pod`: the pod-level values (`spec.resources`, resized in place on 1.36+). */
  kind: 'container' | 'sidecar' | 'pod';
  /** What the container has now (actual values). */
  from: ContainerResourceValues;
  /** What it is resized to. */
  to: ContainerResourceValues;
  /** Resources whose request or limit changes. */
  resources: ResourceName[];
  /** True if the change restarts the container (a resource with resizePolicy RestartContainer changes). */
  restart: boolean;
}

/** The decision for one pod. */
export interface PodDecision {
  namespace: string;
  podName: string;
  /** The workload the pod belongs to (for budgets), e.g. `Deployment/shop/web`. */
  workload: string;
  action: DecisionAction;
  reason: DecisionReason;
  /** A sentence for people: logs, events, the dry-run plan. */
  message: string;
  /** The containers that change (resize: what is sent; evict: what the webhook will give). */
  changes: ContainerChange[];
  /** True for actions that interrupt the workload: evictions and resizes that restart a container. */
  disruptive: boolean;
  /** True for OOM, memory pressure and resize fallbacks: ahead of everything else, no canary wait. */
  urgent: boolean;
  /** True if any request goes up (scale-ups are done first). */
  scaleUp: boolean;
  /** Summed relative change of the requests (ordering among equals); 0.5 = 50%. */
  difference: number;
  /** Resources left alone because an HPA scales the workload on them (to report on the VPA). */
  hpaExcluded: ResourceName[];
  /** Policy and safety notes (capped, kept, floor applied, ...) for logs. */
  notes: string[];
  /**
   * A resize that restarts a container, split into the part that restarts nothing and the rest,
   * when that part can be sent alone (restart-split.ts): plan() sends it while a closed disruption
   * window holds the rest.
   */
  restartSplit?: RestartSplit;
  /** What is left waiting while this decision's in-place part goes on, and why (e.g. `DisruptionWindow`). */
  waiting?: { reason: DecisionReason; message: string; changes: ContainerChange[] };
}

/** A restarting resize by each resource's resizePolicy (restart-split.ts). */
export interface RestartSplit {
  /** Why the pod is resized (its triggers), without what restarts. */
  why: string;
  /** Every change of a resource with resizePolicy NotRequired: applied in place, restarting nothing. */
  inPlace: ContainerChange[];
  /** The rest (resizePolicy RestartContainer), from the values after the in-place part to the target. */
  restarting: ContainerChange[];
}

/** True for the actions that write to the API server. */
export function isAction(decision: Pick<PodDecision, 'action'>): boolean {
  return decision.action === 'ResizeInPlace' || decision.action === 'ResizeWithRestart' || decision.action === 'Evict';
}

/** A Skip of one pod with nothing to change: the start of every decision the planner makes. */
export function skipDecision(pod: V1Pod, workload: string, reason: DecisionReason, message: string): PodDecision {
  return {
    namespace: pod.metadata?.namespace ?? '',
    podName: pod.metadata?.name ?? '',
    workload,
    action: 'Skip',
    reason,
    message,
    changes: [],
    disruptive: false,
    urgent: false,
    scaleUp: false,
    difference: 0,
    hpaExcluded: [],
    notes: [],
  };
}
