/**
 * The resources a pod's containers should have under a VPA: the one policy function shared by the
 * updater (what to resize to) and the admission webhook (what a new pod starts with).
 *
 * For every regular container and restartable (sidecar) init container: the container policy by
 * name or `"*"`; `mode: Off` and containers without a recommendation are left alone; otherwise
 * `planContainer` computes requests and limits (min/maxAllowed, LimitRange, controlledValues).
 * Then the pod's totals are fitted into a LimitRange of type Pod (pod-limit-range.ts): the movable
 * requests are scaled by one factor and planned again from it, so limits follow with their ratio.
 * At pod creation (`atCreation`) every container moves, those without a recommendation and in
 * mode Off too, as upstream's admission controller does; in place only the recommended ones move.
 * Last the pod-wide rules of the resize API:
 * - a BestEffort pod is left alone (at creation, the webhook may choose `requestsForBestEffort`:
 *   the pod gets requests and becomes Burstable); a pod with pod-level resources keeps its
 *   containers' values and gets pod-level ones (pod-level-resources.ts) where `podLevelResources`
 *   allows, else it is left alone;
 * - a Guaranteed pod stays Guaranteed (requests == limits, see planContainer);
 * - a Burstable pod never becomes Guaranteed: if the new values would make requests equal limits
 *   everywhere, one changed limit is raised or request lowered by a step (1m / 1 MiB), or, where
 *   the bounds forbid both, that change is reverted (qos-guard.ts); if the class would still
 *   change, nothing is changed.
 * Results are whole millicores and bytes, never NaN or negative, requests <= limits, no limit added
 * and no request or limit removed. Pure: no I/O, never throws.
 */
import type { V1Container, V1LimitRange, V1Pod, V1ResourceRequirements } from '@kubernetes/client-node';
import { QuantityError } from 'kube-basics/quantity';
import type { PodResourcePolicy } from '../api/vpa.ts';
import type { ResourceAmounts } from '../api/vpa-quantities.ts';
import { RESOURCE_NAMES, type ResourceName } from 'kube-basics/resources';
import { describeAmount, type Adjustment } from './adjustments.ts';
import { planContainer, type MemoryLimitRules } from './container-plan.ts';
import { containerPolicyFor, type EffectiveContainerPolicy } from './container-policy.ts';
import { readResourceValues, sameValues, type ContainerResourceValues } from './container-values.ts';
import { limitRangeConstraints, type LimitRangeConstraints } from './limit-range.ts';
import { podBoundScale, podTotalsFit, scaleForPodBound } from './pod-limit-range.ts';
import { hasPodLevelResources, planPodLevel, podLevelRecommendation, POD_LEVEL } from './pod-level-resources.ts';
import { podQosClass, type QosClass } from './qos.ts';
import { keepQosClass } from './qos-guard.ts';

/** A recommended request per resource for one container (the VPA status target, as numbers). */
export interface ContainerTarget {
  containerName: string;
  target: ResourceAmounts;
}

/** Everything the policy decides from. */
export interface PodResourcesInput {
  pod: V1Pod;
  resourcePolicy?: PodResourcePolicy;
  /** The LimitRange objects of the pod's namespace. */
  limitRanges?: readonly V1LimitRange[];
  recommendations: readonly ContainerTarget[];
  /**
   * The resources each container has now, by container name, where they differ from the spec
   * (the updater passes `status.containerStatuses[].resources`, what the kubelet applied).
   */
  currentResources?: Readonly<Record<string, V1ResourceRequirements | undefined>>;
  /**
   * Memory limit safety per container name (the updater's: recent peak plus margin as `floor`,
   * `mayDecrease: false` where the server refuses to lower a memory limit in place). See
   * `MemoryLimitRules`. The admission webhook passes only its runtime floors (a JVM's heap +
   * overhead): a new pod has no usage yet.
   */
  memoryLimitRules?: Readonly<Record<string, MemoryLimitRules | undefined>>;
  /**
   * At pod creation only, if the admission webhook chooses it: give a BestEffort pod its
   * recommended requests (no limits), which makes it Burstable, as the upstream admission
   * controller does. Default false: a BestEffort pod is left alone, and a resize must leave it so.
   */
  requestsForBestEffort?: boolean;
  /**
   * True when the admission webhook plans a pod being created. To fit a LimitRange of type Pod,
   * every container's request is then scaled, also those without a recommendation or in mode Off
   * (upstream's admission controller does so; the pod is refused otherwise). Default false (the
   * updater, in place): only containers with a recommendation move, the others keep their values
   * (scaling them on every pass would drain them a little each time).
   */
  atCreation?: boolean;
  /**
   * Whether pod-level values (`spec.resources`) may be planned (pod-level-resources.ts): the
   * webhook at creation, the updater (which resizes them in place only on 1.36+). Default false:
   * a pod with pod-level resources is left alone. Its recommendation is the entry named
   * POD_LEVEL in `recommendations` if there is one, else the sum of the containers'.
   */
  podLevelResources?: boolean;
}

/** The plan for one container. */
export interface ContainerResourcesPlan {
  containerName: string;
  /** `container` for `spec.containers`, `sidecar` for a restartable init container, `pod` for the pod-level values (named POD_LEVEL). */
  kind: 'container' | 'sidecar' | 'pod';
  current: ContainerResourceValues;
  proposed: ContainerResourceValues;
  /** Resources whose request or limit differs between current and proposed. */
  changedResources: ResourceName[];
  /** Adjustments made for this container. */
  reasons: Adjustment[];
}

/** The plan for a pod. */
export interface PodResourcesPlan {
  /** The pod's QoS class, which the plan preserves (except under `requestsForBestEffort`). */
  qosClass: QosClass;
  containers: ContainerResourcesPlan[];
  /** Adjustments about the pod as a whole (left alone, QoS kept, ...). */
  reasons: Adjustment[];
  /** True if any container's resources change. */
  changed: boolean;
}

interface Slot {
  containerName: string;
  kind: 'container' | 'sidecar' | 'pod';
  current: ContainerResourceValues;
  proposed: ContainerResourceValues;
  policy?: EffectiveContainerPolicy;
  /** The recommendation planned for this container (none: no recommendation, mode Off, unreadable). */
  target?: ResourceAmounts;
  reasons: Adjustment[];
}

/** Computes the pod's new container resources. Never throws. */
export function planPodResources(input: PodResourcesInput): PodResourcesPlan {
  let slots: Slot[];
  let others: ContainerResourceValues[];
  let qosClass: QosClass;
  try {
    ({ slots, others } = readSlots(input));
    qosClass = podQosClass(input.pod);
  } catch (err) {
    if (!(err instanceof QuantityError)) throw err;
    return unreadable(input.pod, err);
  }
  const podReasons: Adjustment[] = [];
  if (hasPodLevelResources(input.pod)) {
    if (!input.podLevelResources) {
      podReasons.push({ code: 'PodLevelResourcesLeftAlone', message: 'the pod sets pod-level resources, which cannot be resized here; left unchanged' });
      return finish(qosClass, slots, podReasons);
    }
    try {
      return withPodLevel(input, qosClass, slots, podReasons);
    } catch (err) {
      if (!(err instanceof QuantityError)) throw err;
      return unreadable(input.pod, err);
    }
  }
  const startBestEffort = qosClass === 'BestEffort' && input.requestsForBestEffort === true;
  if (qosClass === 'BestEffort' && !startBestEffort) {
    podReasons.push({ code: 'BestEffortLeftAlone', message: 'the pod is BestEffort and must stay so; left unchanged' });
    return finish(qosClass, slots, podReasons);
  }

  const limitRange = limitRangeConstraints(input.limitRanges);
  const targets = new Map(input.recommendations.map((r) => [r.containerName, r.target]));
  for (const slot of slots) {
    const name = slot.containerName;
    try {
      slot.policy = containerPolicyFor(input.resourcePolicy, name);
    } catch (err) {
      if (!(err instanceof QuantityError)) throw err;
      slot.reasons.push({
        code: 'UnreadableResources',
        container: name,
        message: `the container policy has a malformed quantity (${err.message}); left unchanged`,
      });
      continue;
    }
    if (slot.policy.mode === 'Off') {
      slot.reasons.push({ code: 'ContainerModeOff', container: name, message: 'container policy mode is Off; left unchanged' });
      continue;
    }
    const target = targets.get(name);
    if (!target) {
      slot.reasons.push({ code: 'NoRecommendation', container: name, message: 'no recommendation for this container; left unchanged' });
      continue;
    }
    slot.target = target;
    const result = planContainer({
      containerName: name,
      current: slot.current,
      target,
      policy: slot.policy,
      limitRange: limitRange.container,
      guaranteed: qosClass === 'Guaranteed',
      memoryLimitRules: input.memoryLimitRules?.[name],
    });
    slot.proposed = result.proposed;
    slot.reasons.push(...result.reasons);
  }
  for (const r of RESOURCE_NAMES) {
    const reason = fitPodBound(slots, r, limitRange, qosClass === 'Guaranteed', input);
    if (reason) podReasons.push(reason);
  }
  // A BestEffort pod given requests at creation becomes Burstable (no limit is ever added).
  const expected = startBestEffort && slots.some((x) => !sameValues(x.current, x.proposed)) ? 'Burstable' : qosClass;
  podReasons.push(...keepQosClass(expected, slots, others, limitRange));
  keepPodTotals(slots, others, limitRange, podReasons);
  return finish(qosClass, slots, podReasons);
}

/**
 * Scales the movable requests of resource r into the Pod LimitRange (pod-limit-range.ts) and plans
 * those containers again from the scaled requests, so that each limit keeps its ratio to its
 * request and every per-container rule still holds. Returns the pod-level adjustment, if any.
 */
function fitPodBound(slots: Slot[], r: ResourceName, limitRange: LimitRangeConstraints, guaranteed: boolean, input: PodResourcesInput): Adjustment | undefined {
  const bounds = limitRange.pod[r];
  if (bounds.min === undefined && bounds.max === undefined) return undefined;
  const movable = (s: Slot) =>
    s.policy !== undefined && (input.atCreation === true || (Number.isFinite(s.target?.[r]) && s.policy.controlledResources.includes(r)));
  const shares = slots.map((s) => ({ request: s.proposed.requests[r], limit: s.proposed.limits[r], movable: movable(s) }));
  const scale = podBoundScale(shares, r, bounds);
  if (!scale) return undefined;
  if (scale.direction === 'unfit') return { code: 'CappedToPodLimitRange', resource: r, message: `${scale.why}; scaling cannot fit it, left as planned` };
  const moved: string[] = [];
  for (const slot of slots) {
    const request = slot.proposed.requests[r];
    if (!movable(slot) || request === undefined) continue;
    const result = planContainer({
      containerName: slot.containerName,
      current: slot.current,
      target: { [r]: scaleForPodBound(request, scale) },
      policy: { ...slot.policy!, controlledResources: [r] },
      limitRange: limitRange.container,
      guaranteed,
      memoryLimitRules: input.memoryLimitRules?.[slot.containerName],
      podBound: scale.direction,
    });
    const proposed: ContainerResourceValues = { requests: { ...slot.proposed.requests }, limits: { ...slot.proposed.limits } };
    for (const side of ['requests', 'limits'] as const) {
      const value = result.proposed[side][r];
      if (value === undefined) delete proposed[side][r];
      else proposed[side][r] = value;
    }
    slot.proposed = proposed;
    // The reasons for r now explain the scaled values; a container moved at creation without a
    // recommendation (or in mode Off) is no longer "left unchanged".
    slot.reasons = [...slot.reasons.filter((a) => a.resource !== r && a.code !== 'NoRecommendation' && a.code !== 'ContainerModeOff'), ...result.reasons];
    moved.push(slot.containerName);
  }
  const factor = `${describeAmount(r, scale.num)}/${describeAmount(r, scale.den)}`;
  const rounded = scale.direction === 'raise' ? 'rounded up' : 'rounded down';
  return {
    code: scale.direction === 'raise' ? 'RaisedToPodLimitRange' : 'CappedToPodLimitRange',
    resource: r,
    message: `${scale.why}: the requests of ${moved.join(', ')} scaled by ${factor} (${rounded}), limits in proportion`,
  };
}

/**
 * Last check: a revert by the QoS rule can mix current and proposed values into totals outside
 * a Pod LimitRange that both met; then the pod is left as it is.
 */
function keepPodTotals(slots: Slot[], others: ContainerResourceValues[], limitRange: LimitRangeConstraints, podReasons: Adjustment[]): void {
  for (const r of RESOURCE_NAMES) {
    const fitsNow = podTotalsFit(
      slots.map((s) => s.current),
      others,
      r,
      limitRange.pod[r],
    );
    if (
      !fitsNow ||
      podTotalsFit(
        slots.map((s) => s.proposed),
        others,
        r,
        limitRange.pod[r],
      )
    )
      continue;
    for (const slot of slots) slot.proposed = slot.current;
    podReasons.push({
      code: 'CappedToPodLimitRange',
      resource: r,
      message: `${r}: the new resources would take the pod's total outside the Pod LimitRange; left unchanged`,
    });
    return;
  }
}

function readSlots(input: PodResourcesInput): { slots: Slot[]; others: ContainerResourceValues[] } {
  const spec = input.pod.spec;
  const slots: Slot[] = [];
  const others: ContainerResourceValues[] = [];
  const read = (c: V1Container) => readResourceValues(input.currentResources?.[c.name] ?? c.resources);
  const slot = (container: V1Container, kind: Slot['kind']): Slot => {
    const current = read(container);
    return { containerName: container.name, kind, current, proposed: current, reasons: [] };
  };
  for (const c of spec?.containers ?? []) slots.push(slot(c, 'container'));
  for (const c of spec?.initContainers ?? []) {
    if (c.restartPolicy === 'Always') slots.push(slot(c, 'sidecar'));
    else others.push(read(c));
  }
  return { slots, others };
}

/**
 * The plan of a pod with pod-level resources: its containers keep their own values, the pod-level
 * values move (pod-level-resources.ts). Without a pod-level recommendation the pod is left alone.
 */
function withPodLevel(input: PodResourcesInput, qosClass: QosClass, slots: Slot[], podReasons: Adjustment[]): PodResourcesPlan {
  const given = input.recommendations.find((r) => r.containerName === POD_LEVEL);
  const summed = given ? { ok: true as const, recommendation: given } : podLevelRecommendation(input.pod, input.recommendations, input.resourcePolicy);
  if (!summed.ok) {
    podReasons.push({ code: 'NoRecommendation', container: POD_LEVEL, message: `${summed.message}; pod-level values left unchanged` });
    return finish(qosClass, slots, podReasons);
  }
  const level = planPodLevel({
    pod: input.pod,
    target: summed.recommendation.target,
    resourcePolicy: input.resourcePolicy,
    qosClass,
    podLimitRange: limitRangeConstraints(input.limitRanges).pod,
    memoryLimitRules: input.memoryLimitRules?.[POD_LEVEL],
  });
  const podSlot: Slot = { containerName: POD_LEVEL, kind: 'pod', current: level.current, proposed: level.proposed, reasons: level.reasons };
  return finish(qosClass, [...slots, podSlot], podReasons);
}

function finish(qosClass: QosClass, slots: Slot[], podReasons: Adjustment[]): PodResourcesPlan {
  const containers = slots.map((s): ContainerResourcesPlan => ({
    containerName: s.containerName,
    kind: s.kind,
    current: s.current,
    proposed: s.proposed,
    changedResources: RESOURCE_NAMES.filter((r) => s.current.requests[r] !== s.proposed.requests[r] || s.current.limits[r] !== s.proposed.limits[r]),
    reasons: s.reasons,
  }));
  return { qosClass, containers, reasons: podReasons, changed: containers.some((c) => !sameValues(c.current, c.proposed)) };
}

function unreadable(pod: V1Pod, err: QuantityError): PodResourcesPlan {
  const reasons: Adjustment[] = [{ code: 'UnreadableResources', message: `the pod's resources cannot be read (${err.message}); left unchanged` }];
  const empty: ContainerResourceValues = { requests: {}, limits: {} };
  // Without readable values the class cannot be computed; report the recorded one, else Burstable.
  const recorded = pod.status?.qosClass;
  const qosClass: QosClass = recorded === 'Guaranteed' || recorded === 'BestEffort' ? recorded : 'Burstable';
  const containers = (pod.spec?.containers ?? []).map((c): ContainerResourcesPlan => ({
    containerName: c.name,
    kind: 'container',
    current: empty,
    proposed: empty,
    changedResources: [],
    reasons: [],
  }));
  return { qosClass, containers, reasons, changed: false };
}
