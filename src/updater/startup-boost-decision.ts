/**
 * The decision a start-up CPU boost makes for a pod (rule 1 of decide-pod.ts): wait while the boost
 * lasts, then give it back in place (`StartupBoostEnded`, urgent), or say why it cannot be given
 * back (`StartupBoostStuck`). Tailor's webhook boost (startup-boost-return.ts) comes first, else
 * upstream's annotation `vpaCpuStartupBoost/<container>` (upstream-boost-return.ts).
 */
import { QuantityError } from 'kube-basics/quantity';
import type { UpdateMode } from '../api/vpa.ts';
import type { NumericContainerRecommendation } from '../api/vpa-quantities.ts';
import { readResourceValues, type ContainerResourceValues } from '../policy/container-values.ts';
import { readUpstreamBoosts } from '../policy/upstream-startup-boost.ts';
import { actualResources, type ActualContainerResources } from './actual-resources.ts';
import { containerRestartAllowed } from './annotations.ts';
import { ordering } from './change-facts.ts';
import type { DecisionAction, DecisionReason, PodDecision } from './decision.ts';
import { withoutResources } from './hpa.ts';
import { recommendationsOf, type PlannerContext, type PodPlanInput } from './pod-plan-input.ts';
import { lastUpdateTime, podStartTime, UPDATER_FIELD_MANAGER } from './pod-timing.ts';
import { inPlaceBlocker, resizeViolations } from './resize-guard.ts';
import { readResizeState } from './resize-state.ts';
import { boostStep, type BoostStep } from './startup-boost-return.ts';
import { upstreamBoostStep } from './upstream-boost-return.ts';

/** The step for upstream's boost annotation `vpaCpuStartupBoost/<container>` (upstream-boost-return.ts). */
function upstreamStep(
  input: PodPlanInput,
  ctx: PlannerContext,
  mode: UpdateMode,
  containers: readonly ActualContainerResources[],
  actual: ReadonlyMap<string, ContainerResourceValues>,
): BoostStep {
  const boosts = readUpstreamBoosts(input.pod.metadata?.annotations);
  if (boosts === undefined) return { kind: 'none' };
  if ('error' in boosts) return { kind: 'unreadable', message: boosts.error };
  let recommendations: NumericContainerRecommendation[] = [];
  if (mode !== 'Off') {
    try {
      recommendations = recommendationsOf(input);
    } catch (err) {
      if (!(err instanceof QuantityError)) throw err;
      return { kind: 'unreadable', message: `the VPA's recommendation cannot be read: ${err.message}` };
    }
    // cpu left to an HPA: the VPA sets none, so the cpu goes back to its value before the boost
    if (ctx.options.respectHpa && input.hpaResources?.includes('cpu')) recommendations = recommendations.map((rec) => withoutResources(rec, ['cpu']));
  }
  const lastUpdate = lastUpdateTime(input.pod, ctx.fieldManager ?? UPDATER_FIELD_MANAGER);
  return upstreamBoostStep({
    pod: input.pod,
    vpa: input.vpa,
    boosts,
    recommendations,
    limitRanges: input.limitRanges,
    containers,
    actual,
    lastUpdate,
    now: ctx.now,
  });
}

/**
 * The decision a start-up boost makes for the pod, if any: Tailor's record (startup-boost-return.ts),
 * else upstream's annotation (upstream-boost-return.ts).
 */
export function startupBoost(
  input: PodPlanInput,
  ctx: PlannerContext,
  mode: UpdateMode,
): { action: DecisionAction; reason: DecisionReason; message: string; extra?: Partial<PodDecision> } | undefined {
  const { pod, vpa } = input;
  const { now, capabilities } = ctx;
  if (readResizeState(pod).phase !== 'None') return undefined; // a resize in flight: followed as usual
  const containers = actualResources(pod);
  const actual = new Map<string, ContainerResourceValues>();
  try {
    for (const c of containers) actual.set(c.name, readResourceValues(c.actual));
  } catch (err) {
    if (!(err instanceof QuantityError)) throw err;
    return undefined;
  }
  let step = boostStep(pod, actual, podStartTime(pod), now);
  if (step.kind === 'none') step = upstreamStep(input, ctx, mode, containers, actual);
  if (step.kind === 'none') return undefined;
  if (step.kind === 'unreadable') return { action: 'Skip', reason: 'StartupBoostStuck', message: `${step.message}; the boost cannot be given back` };
  if (step.kind === 'active') return { action: 'Wait', reason: 'StartupBoost', message: step.message };
  const blocker = inPlaceBlocker(pod, containers, capabilities);
  if (blocker) return { action: 'Skip', reason: 'StartupBoostStuck', message: `${step.message}, but ${blocker}` };
  // Only upstream's boost can restart: Tailor's webhook boosts no container with cpu RestartContainer.
  const restarting = step.changes.filter((c) => c.restart).map((c) => c.containerName);
  if (restarting.length > 0 && !containerRestartAllowed(vpa, ctx.options.allowContainerRestart)) {
    return {
      action: 'Skip',
      reason: 'StartupBoostStuck',
      message: `${step.message}, but that restarts ${restarting.join(', ')} (cpu resizePolicy RestartContainer) and container restarts are not allowed (annotation tailor.dev/allow-container-restart or option allowContainerRestart)`,
    };
  }
  const violations = resizeViolations(pod, step.changes, capabilities, {});
  if (violations.length > 0) return { action: 'Skip', reason: 'StartupBoostStuck', message: `${step.message}, not sent: ${violations.join('; ')}` };
  const restart = restarting.length > 0;
  const extra = { changes: step.changes, urgent: true, disruptive: restart, ...ordering(step.changes) };
  return {
    action: restart ? 'ResizeWithRestart' : 'ResizeInPlace',
    reason: 'StartupBoostEnded',
    message: restart ? `${step.message}; restarts ${restarting.join(', ')}` : step.message,
    extra,
  };
}
