/**
 * The planner for one pod: (pod, its VPA, recommendation, options, server capabilities, recent
 * usage, now) -> a decision with a reason. Pure. Budgets, the canary and rate limits across pods
 * are applied afterwards by `plan` (updater-plan.ts). The rules, in order:
 * 1. mode `Off`: skip, except to give back a start-up boost. A pod terminating or not running:
 *    skip. A start-up CPU boost from the webhook (startup-boost-return.ts), else one from
 *    upstream's admission controller (annotation `vpaCpuStartupBoost/<container>`,
 *    upstream-boost-return.ts): wait while it lasts, then give it back in place
 *    (`StartupBoostEnded`, urgent: no canary or cooldown; startup-boost-decision.ts). Mode
 *    `Initial`: skip.
 * 2. the recommendation (from the VPA status unless given); resources an HPA scales on are left
 *    alone (`respectHpa`); nothing left: skip.
 * 3. a resize in flight (in-place modes): follow it (follow-resize.ts): wait, fall back, or replan.
 * 4. triggers (triggers.ts): OOM kill (with the VPA's `evictAfterOOMSeconds`, only a quick one:
 *    oom.ts `quickOomKills`), memory pressure, outside bounds, drift on an old pod; none:
 *    skip. Not urgent and within the cooldown after the last change: wait, unless a request is short
 *    of its lowerBound by the drift threshold (decision 0296; not with the workload's own cooldown).
 * 5. the new values from the policy (src/policy: min/maxAllowed, controlledValues, LimitRange,
 *    QoS). OOM and pressure raise memory by at least `memoryPressureRaiseFactor`; when they are
 *    the only triggers, only the memory of the containers concerned changes.
 * 6. `Recreate` / `Auto`: evict (if the evictionRequirements allow and the recreated pod would get
 *    different resources from the webhook, which writes the recommendation, not the OOM raise).
 *    `InPlaceOrRecreate` / `InPlace`: in place if the server, node and pod allow it (else evict /
 *    skip); safe changes (in-place-changes.ts); checked against the server's rules
 *    (resize-guard.ts); a restart of any container makes it `ResizeWithRestart` (disruptive), with
 *    its part that restarts nothing set aside (`restartSplit`, restart-split.ts) for plan() to send
 *    alone while a disruption window holds the rest.
 * A pod with pod-level resources (`spec.resources`) is planned as one subject, POD_LEVEL: its
 * pod-level values against the sum of its containers' recommendations (pod-level-view.ts),
 * resized in place from 1.36 (before, an in-place blocker).
 * 7. runtime-aware memory (src/policy/container-runtime.ts, override `tailor.dev/runtime`): a
 *    runtime that sizes its memory at start (JVM, PostgreSQL, MySQL, Redis) with memory
 *    resizePolicy NotRequired gets no in-place memory change (except urgent raises); when that
 *    leaves nothing to do in place, `InPlaceOrRecreate` recreates the pod (the restart path, the
 *    runtime starts with the new size) and `InPlace` skips with `StartSizedMemory`. A memory limit
 *    never goes below a JVM's heap + overhead.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { QuantityError } from 'kube-basics/quantity';
import type { UpdateMode, VerticalPodAutoscaler } from '../api/vpa.ts';
import type { NumericContainerRecommendation } from '../api/vpa-quantities.ts';
import { readResourceValues, type ContainerResourceValues } from '../policy/container-values.ts';
import { planPodResources, type ContainerTarget } from '../policy/pod-resources.ts';
import { hasPodLevelResources, POD_LEVEL } from '../policy/pod-level-resources.ts';
import { RESOURCE_NAMES } from '../model/types.ts';
import { actualByName, actualResources, notRunning } from './actual-resources.ts';
import { containerRestartAllowed } from './annotations.ts';
import { skipDecision, type DecisionAction, type DecisionReason, type PodDecision } from './decision.ts';
import { evictionChanges, ordering, sameAsPending } from './change-facts.ts';
import { evictionRequirementsMet } from './eviction-requirements.ts';
import { followResize } from './follow-resize.ts';
import { withoutResources } from './hpa.ts';
import { inPlaceChanges } from './in-place-changes.ts';
import { underMemoryPressure } from './memory-pressure.ts';
import { quickOomKills, recentOomKills } from './oom.ts';
import { coolingDown, oldEnoughToDrift } from '../policy/change-rules.ts';
import { COOLDOWN_ANNOTATION, MAX_INCREASE_ANNOTATION } from '../policy/annotations/pace-annotations.ts';
import { recommendationsOf, type PlannerContext, type PodPlanInput } from './pod-plan-input.ts';
import { lastUpdateTime, podStartTime, UPDATER_FIELD_MANAGER } from './pod-timing.ts';
import { podLevelView } from './pod-level-view.ts';
import { policyTargets } from './policy-targets.ts';
import { inPlaceBlocker, resizeViolations } from './resize-guard.ts';
import { readResizeState } from './resize-state.ts';
import { refusalState, sameAsRefused } from './resize-refusal.ts';
import { shortContainers, updateTriggers, type Trigger } from './triggers.ts';
import { detectRuntime, type ContainerRuntime } from '../policy/container-runtime.ts';
import { runtimeOverridesOf } from '../policy/runtime-annotation.ts';
import { overrideFor } from '../policy/runtime-fit.ts';
import { sendableSplit } from './restart-split.ts';
import { startupBoost } from './startup-boost-decision.ts';

/** Each container's runtime, with the VPA's `tailor.dev/runtime` override (an invalid one is ignored and noted). */
function podRuntimes(pod: V1Pod, vpa: VerticalPodAutoscaler): { runtimes: Map<string, ContainerRuntime>; note?: string } {
  const parsed = runtimeOverridesOf(vpa.metadata.annotations);
  const overrides = parsed.ok ? parsed.overrides : undefined;
  const runtimes = new Map<string, ContainerRuntime>();
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])])
    runtimes.set(c.name, detectRuntime(c, overrideFor(overrides, c.name)));
  return parsed.ok ? { runtimes } : { runtimes, note: `${parsed.message}; detected runtimes used instead` };
}

/** A span for a message: whole seconds below 100 s (a 20 s cooldown reads "20 s", not "0 min"), whole minutes above. */
function spanText(ms: number): string {
  return ms < 100_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}

const IN_PLACE_MODES: readonly UpdateMode[] = ['InPlace', 'InPlaceOrRecreate'];

/** The decision for one pod. Never throws for bad input: unreadable objects give a Skip. */
export function decidePod(input: PodPlanInput, ctx: PlannerContext): PodDecision {
  const { pod, vpa } = input;
  const { options, capabilities, now } = ctx;
  const base = skipDecision(pod, input.workload, 'UpToDate', '');
  const decide = (action: DecisionAction, reason: DecisionReason, message: string, extra: Partial<PodDecision> = {}): PodDecision => ({
    ...base,
    action,
    reason,
    message,
    ...extra,
  });

  const mode: UpdateMode = vpa.spec.updatePolicy?.updateMode ?? 'Recreate';
  const running = !pod.metadata?.deletionTimestamp && pod.status?.phase === 'Running';
  if (mode === 'Off') {
    // A start-up boost the webhook gave in mode Off (as upstream) is still given back.
    const boost = running ? startupBoost(input, ctx, mode) : undefined;
    return boost ? decide(boost.action, boost.reason, boost.message, boost.extra) : decide('Skip', 'UpdateModeOff', 'updateMode Off: recommendations only');
  }
  if (pod.metadata?.deletionTimestamp) return decide('Skip', 'PodTerminating', 'the pod is terminating');
  if (pod.status?.phase !== 'Running') return decide('Skip', 'PodNotRunning', `the pod is ${pod.status?.phase ?? 'in an unknown phase'}`);
  // A start-up boost the webhook gave (any mode, Off above) is given back in place, Initial included.
  const boosted = startupBoost(input, ctx, mode);
  if (boosted) return decide(boosted.action, boosted.reason, boosted.message, boosted.extra);
  if (mode === 'Initial') return decide('Skip', 'UpdateModeInitial', 'updateMode Initial: resources are set only when pods are created');

  let recommendations: NumericContainerRecommendation[];
  try {
    recommendations = recommendationsOf(input);
  } catch (err) {
    if (!(err instanceof QuantityError)) throw err;
    return decide('Skip', 'InvalidRecommendation', `the VPA's recommendation cannot be read: ${err.message}`);
  }
  if (recommendations.length === 0) return decide('Skip', 'NoRecommendation', 'the VPA has no recommendation yet');

  if (options.respectHpa && input.hpaResources && input.hpaResources.length > 0) {
    const excluded = RESOURCE_NAMES.filter((r) => input.hpaResources!.includes(r) && recommendations.some((rec) => rec.target[r] !== undefined));
    base.hpaExcluded = excluded;
    recommendations = recommendations.map((rec) => withoutResources(rec, excluded)).filter((rec) => Object.keys(rec.target).length > 0);
    if (recommendations.length === 0) return decide('Skip', 'HpaConflict', `an HPA scales this workload on ${excluded.join(' and ')}; left to the HPA`);
  }

  const containers = actualResources(pod);
  let actual = new Map<string, ContainerResourceValues>();
  let usage = input.usage;
  // A pod with pod-level resources is planned as one subject, POD_LEVEL (pod-level-view.ts).
  const podLevel = hasPodLevelResources(pod);
  try {
    for (const c of containers) actual.set(c.name, readResourceValues(c.actual));
    if (podLevel) {
      const seen = podLevelView(pod, recommendations, vpa.spec.resourcePolicy, usage);
      if (!seen.ok) return decide('Skip', 'PolicyLeftAlone', `${seen.message}; pod-level values left unchanged`);
      ({ actual, recommendations, usage } = seen.view);
    }
  } catch (err) {
    if (!(err instanceof QuantityError)) throw err;
    return decide('Skip', 'PolicyLeftAlone', `the pod's resources cannot be read: ${err.message}`);
  }

  const fieldManager = ctx.fieldManager ?? UPDATER_FIELD_MANAGER;
  // Times ahead of this clock (clock skew) count from when they were first seen, never as future.
  const podKey = `${base.namespace}/${base.podName}`;
  const bounded = (what: string, t: number | undefined): number | undefined =>
    t === undefined || t <= now ? t : Math.min(now, ctx.futureTime?.(`${podKey} ${what}`, t) ?? now);
  const reportedUpdate = lastUpdateTime(pod, fieldManager);
  const lastUpdate = bounded('last update', reportedUpdate);
  const inPlaceMode = IN_PLACE_MODES.includes(mode);
  // A resize the API server refused for the node's capacity (1.36+) leaves no trace on the pod: the
  // updater's memory of it stands for the kubelet's Infeasible of earlier versions.
  const refusal = ctx.resizeRefusal?.(pod);
  const observed = readResizeState(pod);
  const read = observed.phase === 'None' && refusal ? refusalState(refusal) : observed;
  const state = { ...read, since: bounded('resize since', read.since) };
  const follow = inPlaceMode ? followResize(state, mode, lastUpdate, now, options) : ({ kind: 'none' } as const);
  if (follow.kind === 'wait') return decide('Wait', follow.reason, follow.message);

  const limitRanges = input.limitRanges;
  const policyPlan = (targets: readonly ContainerTarget[]) =>
    planPodResources({
      pod,
      resourcePolicy: vpa.spec.resourcePolicy,
      limitRanges,
      recommendations: targets,
      currentResources: actualByName(containers),
      podLevelResources: true,
    });

  if (follow.kind === 'fallback') {
    const plan = policyPlan(recommendations);
    const changes = evictionChanges(plan);
    return decide('Evict', follow.reason, follow.message, { changes, disruptive: true, urgent: true, ...ordering(changes) });
  }

  const start = podStartTime(pod);
  // Memory left to an HPA is not raised by the OOM and pressure rules either.
  const memoryManaged = !base.hpaExcluded.includes('memory');
  // A VPA's evictAfterOOMSeconds (upstream 1.8) counts only quick OOM kills, as upstream's updater.
  const evictAfterOom = vpa.spec.updatePolicy?.evictAfterOOMSeconds;
  const kills = evictAfterOom === undefined ? recentOomKills(pod, now, options.oomLookbackMs, lastUpdate) : quickOomKills(pod, now, evictAfterOom, lastUpdate);
  const killed = kills.map((k) => k.containerName);
  const oomKilled = !memoryManaged ? [] : podLevel ? (killed.length > 0 ? [POD_LEVEL] : []) : killed.filter((n) => actual.has(n));
  const underPressure = !memoryManaged ? [] : [...actual.keys()].filter((n) => underMemoryPressure(usage?.[n], actual.get(n)?.limits.memory, options));
  const triggers = updateTriggers({ actual, recommendations, podAgeMs: start === undefined ? undefined : now - start, oomKilled, underPressure, options });
  const replanning = follow.kind === 'replan';
  if (triggers.length === 0 && !replanning) {
    const young = start !== undefined && !oldEnoughToDrift(now - start, options);
    return decide(
      'Skip',
      'WithinBounds',
      young
        ? 'requests within the recommended bounds; the pod is too young for drift updates'
        : 'requests within the recommended bounds and close enough to the targets',
    );
  }
  const urgentContainers = new Set([...oomKilled, ...underPressure]);
  const urgent = urgentContainers.size > 0;
  const cooling = lastUpdate !== undefined && coolingDown(now - lastUpdate, options);
  // A container short of its lowerBound is raised at once, unless the workload set its own cooldown (a hard pace).
  const ownCooldown = vpa.metadata?.annotations?.[COOLDOWN_ANNOTATION.key] !== undefined;
  const short = cooling && !urgent && !ownCooldown ? shortContainers(actual, recommendations, options) : [];
  if (!urgent && !replanning && cooling && short.length === 0) {
    const skew =
      reportedUpdate !== undefined && reportedUpdate > now
        ? ` (its change time lies ${spanText(reportedUpdate - now)} ahead of this clock: clock skew, counted from when first seen)`
        : '';
    return decide('Wait', 'Cooldown', `changed ${spanText(now - lastUpdate)} ago${skew}; cooldown ${spanText(options.podCooldownMs)}`);
  }

  const onlyUrgent = triggers.every((t) => t.reason === 'OomKilled' || t.reason === 'MemoryPressure');
  const targets = policyTargets(recommendations, actual, urgentContainers, onlyUrgent && !replanning, options.memoryPressureRaiseFactor);
  const plan = policyPlan(targets);
  const policyNotes = [...plan.reasons, ...plan.containers.flatMap((c) => c.reasons)].map((a) => (a.container ? `${a.container}: ${a.message}` : a.message));
  base.notes = policyNotes;
  const trigger: Trigger | undefined = triggers[0];
  const reason: DecisionReason = replanning ? 'ResizeSuperseded' : trigger!.reason;
  const shortNote =
    short.length > 0
      ? `changed ${spanText(now - lastUpdate!)} ago, but ${short.join(', ')} short of the lowerBound by ${Math.round(options.driftThreshold * 100)}% or more: not held by the cooldown`
      : undefined;
  const why = [follow.kind === 'replan' ? follow.message : undefined, ...triggers.map((t) => t.message), shortNote].filter(Boolean).join('; ');

  if (!plan.changed) {
    if (replanning) return decide('Wait', follow.waitReason, `${follow.message}; nothing better to send`);
    const leftAlone = plan.reasons.find((a) => ['BestEffortLeftAlone', 'PodLevelResourcesLeftAlone', 'UnreadableResources', 'QosWouldChange'].includes(a.code));
    if (leftAlone) return decide('Skip', 'PolicyLeftAlone', leftAlone.message);
    return decide('Skip', 'UpToDate', `${why}; but the policy leaves the resources as they are`);
  }

  // An evicted pod comes back with the recommendation as the admission webhook writes it, not
  // with the raised memory of the OOM / pressure rules: evict only if that changes something.
  const evict = (evictReason: DecisionReason, message: string): PodDecision => {
    const changes = evictionChanges(policyPlan(recommendations));
    if (changes.length === 0)
      return decide('Skip', 'UpToDate', `${message}; but a recreated pod would get the same resources (the recommendation has not moved yet)`);
    const unmet = evictionRequirementsMet(vpa.spec.updatePolicy?.evictionRequirements, changes);
    if (unmet) return decide('Skip', 'EvictionRequirementsNotMet', unmet);
    return decide('Evict', evictReason, message, { changes, disruptive: true, urgent, ...ordering(changes) });
  };
  if (!inPlaceMode) return evict(reason, why);

  const blocker = inPlaceBlocker(pod, containers, capabilities);
  if (blocker) {
    if (mode === 'InPlace') return decide('Skip', 'InPlaceUnsupported', `${blocker}; updateMode InPlace never evicts`);
    return evict('FallbackInPlaceUnsupported', `${why}; ${blocker}: evicting instead`);
  }

  const restartAllowed = containerRestartAllowed(vpa, options.allowContainerRestart);
  const { runtimes, note: runtimeNote } = podRuntimes(pod, vpa);
  // A raise reaches the lowerBound in one change, unless the workload set its own max-increase (a hard cap).
  const paced = vpa.metadata?.annotations?.[MAX_INCREASE_ANNOTATION.key] !== undefined;
  const lowerBounds = new Map(paced ? [] : recommendations.flatMap((r) => (r.lowerBound ? [[r.containerName, r.lowerBound] as const] : [])));
  const safe = inPlaceChanges({ pod, plan, usage, capabilities, options, restartAllowed, runtimes, urgent: urgentContainers, lowerBounds });
  base.notes = [...policyNotes, ...(runtimeNote ? [runtimeNote] : []), ...safe.notes];
  if (safe.changes.length === 0) {
    if (replanning) return decide('Wait', follow.waitReason, `${follow.message}; nothing better to send`);
    if (safe.runtimeHeld.length > 0) {
      const held = safe.runtimeHeld.join(', ');
      if (mode === 'InPlaceOrRecreate')
        return evict(reason, `${why}; ${held} sizes its memory at start (resizePolicy memory NotRequired): recreated so it starts with the new memory`);
      return decide(
        'Skip',
        'StartSizedMemory',
        `${why}; memory left alone: ${held} sizes its memory at start and its resizePolicy memory is NotRequired, so an in-place change gives it nothing, and updateMode InPlace never recreates pods (${safe.notes.join('; ')})`,
      );
    }
    if (safe.restartBlocked)
      return decide(
        'Skip',
        'RestartNotAllowed',
        `${why}; the change needs a container restart, which is not allowed (annotation tailor.dev/allow-container-restart or option allowContainerRestart)`,
      );
    return decide('Skip', 'UpToDate', `${why}; no change is safe to make now (${safe.notes.join('; ') || 'held by the safety rules'})`);
  }
  if (replanning && sameAsPending(pod, safe.changes))
    return decide('Wait', follow.waitReason, `${follow.message}; the pending resize is still the one to make`);
  if (replanning && read.source === 'refusal' && refusal && sameAsRefused(refusal, safe.changes))
    return decide('Wait', follow.waitReason, `${follow.message}; the same resize would be refused again`);
  // The pod-level values size every container's cgroup parent: all of them must run.
  const stopped = notRunning(
    containers,
    safe.changes.flatMap((c) => (c.kind === 'pod' ? containers.map((x) => x.name) : [c.containerName])),
  );
  if (stopped.length > 0) {
    const message = `${why}; ${stopped.join(', ')} not running (restarting): a resize now is reported applied, but the kubelet leaves the pod's cgroup at the old size`;
    if (mode === 'InPlace') return decide('Wait', 'ContainerNotRunning', `${message}; resized once it runs (updateMode InPlace never evicts)`);
    const evicted = evict('FallbackNotRunning', `${message}: evicting instead`);
    return evicted.action === 'Evict' ? evicted : decide('Wait', 'ContainerNotRunning', `${message}; ${evicted.message}`);
  }
  const violations = resizeViolations(pod, safe.changes, capabilities, safe.floors);
  if (violations.length > 0) return decide('Skip', 'WouldBeRejected', `not sent: ${violations.join('; ')}`);
  const restart = safe.changes.some((c) => c.restart);
  const message = restart
    ? `${why}; restarts ${safe.changes
        .filter((c) => c.restart)
        .map((c) => c.containerName)
        .join(', ')}`
    : why;
  const split = restart ? sendableSplit(pod, why, safe.changes, capabilities, safe.floors) : undefined;
  return decide(restart ? 'ResizeWithRestart' : 'ResizeInPlace', reason, message, {
    changes: safe.changes,
    disruptive: restart,
    urgent,
    ...ordering(safe.changes),
    ...(split ? { restartSplit: split } : {}),
  });
}
