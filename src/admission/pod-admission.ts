/**
 * The decision for one pod being created: which VPA controls it, and the patch that starts it with
 * the VPA's recommendation. Pure: a function of the pod and the cached cluster view.
 *
 * - No controller, or no VPA targeting the top-most owner: admitted unchanged.
 * - Several VPAs on the owner: the controlling one among the valid ones (`controllingVpa`: the
 *   oldest, then the first name; decision 0277), the VPA the updater and the recommender use too.
 * - Only invalid VPAs (validateVpa) on the owner: admitted unchanged, as Tailor cannot decide.
 * - `updateMode: Off`: the recommendation is not applied (only a start-up boost, as upstream).
 *   Every other mode (`Initial`, `Recreate`, `Auto`, `InPlaceOrRecreate`, `InPlace`) applies it at
 *   creation.
 * - Each container recommendation (status target) is capped with the VPA's resource policy
 *   (`capRecommendation`: container mode Off, controlledResources, min/maxAllowed), then
 *   `planPodResources` writes it into the containers: the same policy the updater uses
 *   (controlledValues, LimitRange Container and Pod bounds, limits scaled with requests, QoS kept).
 *   As upstream, a LimitRange of type Pod scales every container of the new pod, those without a
 *   recommendation too (`atCreation`); the LimitRanger has applied the namespace's defaults to the
 *   pod before the webhook sees it, and checks the patched pod afterwards.
 * - QoS is preserved, BestEffort included: a BestEffort pod stays BestEffort (no requests are
 *   added), unlike the upstream admission controller. See docs/decisions/0080.
 * - A memory limit is never set below what the container's runtime needs (a JVM's heap + overhead,
 *   GOMEMLIMIT + 10%; runtime-floors.ts), as the updater does; the adjustment says why.
 * - A start-up boost (upstream 1.8's `startupBoost`, else `tailor.dev/startup-cpu-boost`;
 *   policy/vpa-startup-boost.ts): the CPU is boosted on top of that (startup-boost-plan.ts) and the
 *   steady values recorded on the pod for the updater; with no recommendation yet, or in mode
 *   Off, on top of the pod's own requests (as upstream).
 * - Whenever a valid VPA in a mode other than Off controls the pod, the patch also writes
 *   `vpaObservedContainers` (pod-patch.ts), as upstream's webhook does: with no recommendation yet
 *   or resources already right, the patch is that annotation alone (outcome `no-recommendation` or
 *   `unchanged`: no resource was changed).
 * The pod's `status` is ignored: at creation the class comes from the spec alone.
 */
import type { V1LimitRange, V1Pod } from '@kubernetes/client-node';
import { QuantityError } from 'kube-basics/quantity';
import { controllingVpa, type VpaOwnerFields } from '../api/controlling-vpa.ts';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import { recommendationFromStatus } from '../api/vpa-quantities.ts';
import type { Adjustment } from '../policy/adjustments.ts';
import { capRecommendation } from '../policy/cap-recommendation.ts';
import { describePlanChanges } from '../policy/plan-summary.ts';
import { planPodResources, type ContainerTarget } from '../policy/pod-resources.ts';
import type { JsonPatchOperation } from './json-patch.ts';
import { annotationPatch, buildPodPatch, changeAnnotations, observedContainers } from './pod-patch.ts';
import { topMostOwner, type ControllerLookup, type OwnerRef } from './top-most-owner.ts';
import { withStartupBoost } from './startup-boost-plan.ts';
import { runtimeMemoryRules } from './runtime-floors.ts';
import { BOOST_POD_ANNOTATION, formatBoostRecord } from '../policy/startup-boost.ts';
import { startupBoostFor } from '../policy/vpa-startup-boost.ts';

/** A VPA as cached: the raw object, and the validated one or the reason it is invalid. */
export interface CachedVpa extends VpaOwnerFields {
  metadata: { name: string; namespace?: string; creationTimestamp?: string | Date };
  valid: VerticalPodAutoscaler | undefined;
  /** `formatFieldErrors` of an invalid VPA. */
  problems?: string;
}

/** What the decision reads: the cached view of the pod's namespace. */
export interface PodAdmissionView {
  vpas: readonly CachedVpa[];
  limitRanges: readonly V1LimitRange[];
  controllerOf: ControllerLookup;
}

/** How a pod admission ended; also the `outcome` label of the admission metric. */
export type PodOutcome = 'patched' | 'no-controller' | 'no-vpa' | 'invalid-vpa' | 'mode-off' | 'no-recommendation' | 'unchanged';

/** The decision: a patch (resources only when `patched`) and a sentence for the log. */
export interface PodAdmissionDecision {
  outcome: PodOutcome;
  message: string;
  patch: JsonPatchOperation[];
  owner?: OwnerRef;
  /** `derived` when the Deployment was derived from names (ReplicaSet not cached yet). */
  ownerVia?: 'cache' | 'derived';
  vpaName?: string;
  /** `app: cpu request 100m -> 250m, ...` per changed container. */
  changes: string[];
  adjustments: Adjustment[];
  /** True when the patch gives the pod a start-up CPU boost (counted in /metrics). */
  startupBoost?: boolean;
}

function unchanged(outcome: PodOutcome, message: string, extra: Partial<PodAdmissionDecision> = {}): PodAdmissionDecision {
  return { outcome, message, patch: [], changes: [], adjustments: [], ...extra };
}

/** The capped targets of a valid VPA's recommendation (containers in mode Off are left out). Throws QuantityError. */
export function cappedTargets(vpa: VerticalPodAutoscaler): { targets: ContainerTarget[]; adjustments: Adjustment[] } {
  const targets: ContainerTarget[] = [];
  const adjustments: Adjustment[] = [];
  for (const rec of vpa.status?.recommendation?.containerRecommendations ?? []) {
    const capped = capRecommendation(recommendationFromStatus(rec), vpa.spec.resourcePolicy);
    adjustments.push(...capped.reasons.filter((r) => r.code !== 'ContainerModeOff'));
    if (capped.recommendation) targets.push({ containerName: capped.recommendation.containerName, target: capped.recommendation.target });
  }
  return { targets, adjustments };
}

/** Decides about a pod being created in `namespace`. Pure; never throws. */
export function admitPod(pod: V1Pod, namespace: string, view: PodAdmissionView): PodAdmissionDecision {
  const found = topMostOwner(pod, namespace, view.controllerOf);
  if (!found) return unchanged('no-controller', 'the pod has no controller, so no VPA can target it');
  const { owner, via } = found;
  const ownerText = `${owner.kind}/${owner.name}`;
  const context = { owner, ownerVia: via };
  const workload = { kind: owner.kind, namespace, name: owner.name };
  // Only the VPAs Tailor can read compete, as in the updater and the recommender; an invalid one
  // is reported when no valid VPA targets the owner.
  const cached =
    controllingVpa(
      view.vpas.filter((v) => v.valid !== undefined),
      workload,
    ) ?? controllingVpa(view.vpas, workload);
  if (!cached) return unchanged('no-vpa', `no VPA targets ${ownerText}`, context);
  const vpaName = cached.metadata.name;
  const withVpa = { ...context, vpaName };
  const vpa = cached.valid;
  if (!vpa)
    return unchanged('invalid-vpa', `VPA ${vpaName} (targets ${ownerText}) is invalid, so it is not applied: ${cached.problems ?? 'unknown problem'}`, withVpa);
  const modeOff = vpa.spec.updatePolicy?.updateMode === 'Off';
  const boostFor = (name: string) => startupBoostFor(vpa, name);
  const boosts = (pod.spec?.containers ?? []).some((c) => boostFor(c.name) !== undefined);
  if (modeOff && !boosts) return unchanged('mode-off', `VPA ${vpaName} has updateMode Off`, withVpa);
  const observed = modeOff ? {} : observedContainers(pod);
  const observedOnly = modeOff ? withVpa : { ...withVpa, patch: annotationPatch(pod, observed) };

  let targets: ContainerTarget[] = [];
  let capAdjustments: Adjustment[] = [];
  try {
    if (!modeOff) ({ targets, adjustments: capAdjustments } = cappedTargets(vpa));
  } catch (err) {
    if (!(err instanceof QuantityError)) throw err;
    return unchanged('invalid-vpa', `VPA ${vpaName} has an unreadable recommendation: ${err.message}`, withVpa);
  }
  if (targets.length === 0 && !boosts) return unchanged('no-recommendation', `VPA ${vpaName} has no recommendation yet`, observedOnly);

  const forPlanning: V1Pod = { ...pod, status: undefined };
  const steadyPlan = planPodResources({
    pod: forPlanning,
    resourcePolicy: vpa.spec.resourcePolicy,
    limitRanges: view.limitRanges,
    recommendations: targets,
    memoryLimitRules: runtimeMemoryRules(pod, vpa),
    atCreation: true,
    podLevelResources: true,
  });
  const boosted = boosts ? withStartupBoost(pod, steadyPlan, boostFor, view.limitRanges) : undefined;
  const plan = boosted?.plan ?? steadyPlan;
  const adjustments = [...capAdjustments, ...plan.reasons, ...plan.containers.flatMap((c) => c.reasons)];
  if (!plan.changed) {
    const why = plan.reasons.map((r) => r.message).join('; ');
    return unchanged('unchanged', `VPA ${vpaName}: the pod already has the recommended resources or cannot take them${why ? ` (${why})` : ''}`, {
      ...observedOnly,
      adjustments,
    });
  }
  const annotations = changeAnnotations(vpaName, pod, plan);
  if (boosted?.record) annotations[BOOST_POD_ANNOTATION] = formatBoostRecord(boosted.record);
  Object.assign(annotations, observed);
  const changes = [...describePlanChanges(plan), ...(boosted?.notes ?? [])];
  return {
    outcome: 'patched',
    message: `VPA ${vpaName}: ${changes.join('; ')}`,
    patch: buildPodPatch(pod, plan, annotations),
    ...withVpa,
    changes,
    adjustments,
    ...(boosted?.record ? { startupBoost: true } : {}),
  };
}
