/**
 * The updater's plan for one loop: the decisions for every pod of every workload, in the order the
 * executor carries them out. Pure: budgets and rate limits are inputs, the clock is `now`.
 * 1. the VPA's `tailor.dev/` annotations are read (src/policy/annotations): a bad one makes every
 *    pod of the workload a `Skip InvalidAnnotation` naming it; the pace they set (step limits,
 *    cooldown, canary share) replaces the global options for this workload;
 * 2. each pod is decided alone (decide-pod.ts);
 * 3. actions are ordered: urgent first (OOM, memory pressure, resize fallbacks), then scale-ups,
 *    then by the size of the change (largest first), then by name;
 * 4. in that order, an action becomes a `Wait` when
 *    - it is disruptive and the workload's disruption window (`tailor.dev/disruption-windows`) is
 *      closed (`DisruptionWindow`, with when it opens next); in-place resizes that restart nothing
 *      are not held, and a resize that restarts a container sends its part that restarts nothing
 *      (e.g. cpu with resizePolicy NotRequired beside memory with RestartContainer) as a
 *      `ResizeInPlace` now, the rest named in its `waiting` (restart-split.ts);
 *    - canary: the workload has several live pods and fewer than its canary count (one, or the
 *      `tailor.dev/canary-share` of the live pods, rounded up) have settled at new values: only
 *      that many pods are changed (fewer while others are being resized); urgent actions are exempt;
 *    - it is disruptive and the workload has fewer live pods than minReplicas (`MinReplicas`) or
 *      no disruption left in its budget (`DisruptionBudget`, workload-budget.ts; a pod that is not
 *      Ready takes none: it is down already);
 *    - the loop's global rate limit for resizes or evictions is used up (`RateLimited`);
 *    - it is an eviction and `evictionsHeld` says why evictions wait (the admission webhook's
 *      status Lease is not fresh: `AdmissionUnavailable`, checked first, so it uses no budget).
 * The result lists the actions first (execution order), then waits, then skips.
 */
import type { V1LimitRange, V1Pod } from '@kubernetes/client-node';
import type { NumericContainerRecommendation } from '../api/vpa-quantities.ts';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { ResourceName } from '../model/types.ts';
import type { PodUsage } from './container-usage.ts';
import { decidePod } from './decide-pod.ts';
import type { PlannerContext } from './pod-plan-input.ts';
import { isAction, skipDecision, type DecisionReason, type PodDecision } from './decision.ts';
import { lastUpdateTime, UPDATER_FIELD_MANAGER } from './pod-timing.ts';
import { readResizeState } from './resize-state.ts';
import { inPlacePartOnly } from './restart-split.ts';
import { podReady, workloadBudget } from './workload-budget.ts';
import { describeWindows, windowState, type DisruptionWindows, type WindowState } from '../policy/disruption-window.ts';
import { describeProblem } from '../policy/annotations/annotation-key.ts';
import { canaryCount, withPace } from '../policy/annotations/pace-annotations.ts';
import { readWorkloadAnnotations } from '../policy/annotations/workload-annotations.ts';

/** The pods of one workload under one VPA. */
export interface WorkloadGroup {
  /** e.g. `Deployment/shop/web`. */
  workload: string;
  vpa: VerticalPodAutoscaler;
  pods: readonly V1Pod[];
  /** Desired replicas (the owner's spec.replicas); default: the number of pods. */
  replicas?: number;
  recommendation?: readonly NumericContainerRecommendation[];
  limitRanges?: readonly V1LimitRange[];
  /** Usage by pod name, then container name. */
  usage?: Readonly<Record<string, PodUsage | undefined>>;
  hpaResources?: readonly ResourceName[];
  /** The HPAs that scale the workload on `hpaResources` (for the VPA's HpaConflict condition). */
  hpaNames?: readonly string[];
}

/** What this loop may still do across all workloads (from the executor's rate limiter). */
export interface GlobalBudget {
  resizes: number;
  evictions: number;
}

/** Everything a loop plans from. */
export interface PlanInput extends PlannerContext {
  groups: readonly WorkloadGroup[];
  budget: GlobalBudget;
  /** Set when no eviction may go ahead this loop, with why (the admission webhook's status is not fresh). */
  evictionsHeld?: string;
}

const ORDER: Record<PodDecision['action'], number> = { ResizeInPlace: 0, ResizeWithRestart: 0, Evict: 0, Wait: 1, Skip: 2 };

/** Orders actions: urgent, then scale-ups, then the larger change, then by namespace/name. */
export function compareDecisions(a: PodDecision, b: PodDecision): number {
  return (
    ORDER[a.action] - ORDER[b.action] ||
    Number(b.urgent) - Number(a.urgent) ||
    Number(b.scaleUp) - Number(a.scaleUp) ||
    b.difference - a.difference ||
    a.workload.localeCompare(b.workload) ||
    `${a.namespace}/${a.podName}`.localeCompare(`${b.namespace}/${b.podName}`)
  );
}

function held(d: PodDecision, reason: DecisionReason, why: string): PodDecision {
  return { ...d, action: 'Wait', reason, message: `${why} (planned: ${d.action} ${d.reason}: ${d.message})`, disruptive: false };
}

/** True if the pod has settled at values the updater gave it or the recommendation accepts. */
function settled(pod: V1Pod, decision: PodDecision, fieldManager: string): boolean {
  if (!podReady(pod) || readResizeState(pod).phase !== 'None') return false;
  if (decision.action === 'Skip' && (decision.reason === 'WithinBounds' || decision.reason === 'UpToDate')) return true;
  return lastUpdateTime(pod, fieldManager) !== undefined;
}

/** What the pass over the ordered actions tracks per workload. */
interface WorkloadState {
  disruptions: number;
  live: number;
  minReplicas: number;
  canaryOpen: boolean;
  canaryLeft: number;
  canaries: number;
  /** Set when the workload has disruption windows and a disruptive action planned. */
  window?: { windows: DisruptionWindows; state: WindowState };
}

/** `outside the disruption window * 2-4 * * 1-5 (Europe/Berlin); it opens next at 2026-01-05T01:00:00.000Z`. */
export function windowMessage(windows: DisruptionWindows, state: WindowState): string {
  const next = state.nextOpen === undefined ? 'it does not open within 8 days' : `it opens next at ${new Date(state.nextOpen).toISOString()}`;
  return `outside the disruption window ${describeWindows(windows)}; ${next}`;
}

/** The decision for a pod whose VPA has a bad annotation: left alone until it is fixed. */
function invalidAnnotations(pod: V1Pod, workload: string, problems: readonly string[]): PodDecision {
  return skipDecision(
    pod,
    workload,
    'InvalidAnnotation',
    `the VPA's annotations are invalid, so the updater leaves its pods alone until they are fixed: ${problems.join('; ')}`,
  );
}

const IN_FLIGHT: readonly DecisionReason[] = ['ResizeProposed', 'ResizeInProgress', 'ResizeDeferred', 'ResizeInfeasible', 'ResizeStuck'];

/** The ordered decisions for every pod of every group. */
export function plan(input: PlanInput): PodDecision[] {
  const { options } = input;
  const fieldManager = input.fieldManager ?? UPDATER_FIELD_MANAGER;
  const all: PodDecision[] = [];
  const state = new Map<string, WorkloadState>();
  // Decisions for pods that are not Ready: disrupting one takes nothing from the workload's budget.
  const unready = new WeakSet<PodDecision>();
  for (const group of input.groups) {
    const { settings, problems } = readWorkloadAnnotations(group.vpa.metadata.annotations);
    if (problems.length > 0) {
      all.push(...group.pods.map((pod) => invalidAnnotations(pod, group.workload, problems.map(describeProblem))));
      continue;
    }
    const ctx: PlannerContext = { ...input, options: withPace(options, settings.pace) };
    const decisions = group.pods.map((pod) => {
      const d = decidePod(
        {
          pod,
          vpa: group.vpa,
          workload: group.workload,
          ...(group.recommendation ? { recommendation: group.recommendation } : {}),
          ...(group.limitRanges ? { limitRanges: group.limitRanges } : {}),
          ...(group.usage?.[pod.metadata?.name ?? ''] ? { usage: group.usage[pod.metadata?.name ?? ''] } : {}),
          ...(group.hpaResources ? { hpaResources: group.hpaResources } : {}),
        },
        ctx,
      );
      if (!podReady(pod)) unready.add(d);
      return { pod, d };
    });
    const budget = workloadBudget(group.pods, group.vpa, options, group.replicas);
    const settledPods = decisions.filter(({ pod, d }) => settled(pod, d, fieldManager)).length;
    const inFlight = decisions.filter(({ d }) => IN_FLIGHT.includes(d.reason)).length;
    const canaries = canaryCount(budget.live, options.canary, settings.pace.canaryShare);
    const w: WorkloadState = {
      disruptions: budget.disruptions,
      live: budget.live,
      minReplicas: budget.minReplicas,
      canaryOpen: canaries === 0 || budget.live <= 1 || settledPods >= canaries,
      canaryLeft: Math.max(0, canaries - settledPods - inFlight),
      canaries,
    };
    if (settings.windows && decisions.some(({ d }) => d.disruptive)) w.window = { windows: settings.windows, state: windowState(settings.windows, input.now) };
    state.set(group.workload, w);
    all.push(...decisions.map(({ d }) => d));
  }

  all.sort(compareDecisions);
  let { resizes, evictions } = input.budget;
  return all
    .map((planned) => {
      if (!isAction(planned)) return planned;
      let d = planned;
      if (d.action === 'Evict' && input.evictionsHeld !== undefined) return held(d, 'AdmissionUnavailable', input.evictionsHeld);
      const w = state.get(d.workload)!;
      if (d.disruptive && w.window && !w.window.state.open) {
        const why = windowMessage(w.window.windows, w.window.state);
        if (!d.restartSplit) return held(d, 'DisruptionWindow', why);
        d = inPlacePartOnly({ ...d, restartSplit: d.restartSplit }, 'DisruptionWindow', why);
      }
      if (!d.urgent && !w.canaryOpen) {
        if (w.canaryLeft === 0)
          return held(
            d,
            'Canary',
            w.canaries === 1 ? 'waiting for the canary pod of this workload to settle' : `waiting for ${w.canaries} canary pods of this workload to settle`,
          );
      }
      // A pod that is not Ready (crash-looping after OOM kills, say) is already unavailable: it
      // needs no disruption budget, or a workload whose every pod is down could never be rescued.
      const budgeted = d.disruptive && !unready.has(planned);
      if (d.disruptive && w.live < w.minReplicas) return held(d, 'MinReplicas', `${w.live} live pod(s), fewer than minReplicas ${w.minReplicas}`);
      if (budgeted && w.disruptions <= 0) return held(d, 'DisruptionBudget', "the workload's disruption budget is used up");
      const isEvict = d.action === 'Evict';
      if (isEvict ? evictions <= 0 : resizes <= 0) return held(d, 'RateLimited', `the global ${isEvict ? 'eviction' : 'resize'} rate limit is used up`);
      if (isEvict) evictions -= 1;
      else resizes -= 1;
      if (budgeted) w.disruptions -= 1;
      if (!d.urgent && !w.canaryOpen) w.canaryLeft -= 1;
      return d;
    })
    .sort(compareDecisions);
}
