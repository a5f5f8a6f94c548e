/**
 * Pod-level resources (`spec.resources`, KEP-2837) in a resize, as the API server judges them:
 * - their validation as part of the pod spec (`validatePodResources`): quantities >= 0, requests <=
 *   limits, pod-level requests >= the containers' aggregate requests, each container's limit <= the
 *   pod-level limit (worded and on the fields of the real server, e.g.
 *   `spec.resources.containers[0][cpu].limits: Invalid value: "600m": must be less than or equal to pod limits of 400m`);
 * - the resize rules (`ValidatePodResize` part 2, `validatePodLevelResourcesResize`): up to 1.35
 *   (InPlacePodLevelResourcesVerticalScaling off) every resize of a pod with pod-level resources is
 *   `[]: Forbidden: resize of pods with pod-level resources is forbidden when …`; from 1.36 they
 *   may change, but not be removed, and only cpu and memory may change;
 * - the resize strategy (`dropNonResizeUpdates`): from 1.36 `spec.resources` is taken from the
 *   request, before it is kept as stored (so adding pod-level resources to a pod without them is a
 *   no-op on 1.35: 200, generation unchanged); 1.37 keeps them when the request drops them and
 *   defaults them as at creation (so removing them is a no-op there, where 1.36 refuses it).
 * All recorded on the real 1.35.4, 1.36.3 and 1.37.2 (fidelity corpus, corpus-pod-level.ts).
 */
import { parseQuantity } from 'kube-basics/quantity';
import { forbidden, invalid, type FieldError } from './field-errors.ts';
import { clone, type Pod, type ResourceList, type ResourceRequirements } from './objects.ts';
import { hasPodLevelResources, isSidecar } from './pod-resources.ts';
import { defaultsPodLevelResourcesOnResize, resizesPodLevelResources, type ServerVersion } from './server-version.ts';
import { canonicalizeResourceList, formatQuantity } from './apiserver/quantity-canonical.ts';

const CPU_MEMORY = ['cpu', 'memory'] as const;

/** The field path Go prints for `field.NewPath("")`: the pod itself. */
const ROOT = '[]';

/**
 * The containers' aggregate requests per resource (`AggregateContainerRequests`): app containers and
 * sidecars summed, the largest plain init container's request if larger, each as milli-units with
 * the text of the first container that named it (Go's Quantity.Add keeps the receiver's format).
 */
export function aggregateRequests(pod: Pod): Map<string, { milli: number; like: string }> {
  const sum = new Map<string, { milli: number; like: string }>();
  const running = [...pod.spec.containers, ...(pod.spec.initContainers ?? []).filter(isSidecar)];
  for (const c of running) {
    for (const [name, value] of Object.entries(c.resources?.requests ?? {})) {
      const seen = sum.get(name);
      sum.set(name, { milli: (seen?.milli ?? 0) + parseQuantity(value, 3), like: seen?.like ?? value });
    }
  }
  for (const c of (pod.spec.initContainers ?? []).filter((c) => !isSidecar(c))) {
    for (const [name, value] of Object.entries(c.resources?.requests ?? {})) {
      const seen = sum.get(name);
      if (seen === undefined || parseQuantity(value, 3) > seen.milli) sum.set(name, { milli: parseQuantity(value, 3), like: value });
    }
  }
  return sum;
}

/** `validatePodResources` for cpu and memory: the errors of the pod's `spec.resources` (none without it). */
export function podLevelSpecErrors(pod: Pod): FieldError[] {
  const resources = pod.spec.resources;
  if (resources === undefined) return [];
  const errors: FieldError[] = [];
  const requests = resources.requests ?? {};
  const limits = resources.limits ?? {};
  for (const [kind, list] of [
    ['limits', limits],
    ['requests', requests],
  ] as const) {
    for (const [name, value] of Object.entries(list)) {
      if (parseQuantity(value, 3) < 0) errors.push(invalid(`spec.resources.${kind}[${name}]`, value, 'must be greater than or equal to 0'));
    }
  }
  for (const [name, request] of Object.entries(requests)) {
    const limit = limits[name];
    if (limit !== undefined && parseQuantity(request, 3) > parseQuantity(limit, 3)) {
      errors.push(invalid('spec.resources.requests', request, `must be less than or equal to ${name} limit of ${limit}`));
    }
  }
  const aggregate = aggregateRequests(pod);
  for (const name of CPU_MEMORY) {
    const podRequest = requests[name];
    const containers = aggregate.get(name);
    if (podRequest === undefined || containers === undefined || containers.milli <= parseQuantity(podRequest, 3)) continue;
    errors.push(
      invalid(
        `spec.resources.requests[${name}]`,
        podRequest,
        `must be greater than or equal to aggregate container requests of ${formatQuantity(containers.milli, containers.like)}`,
      ),
    );
  }
  pod.spec.containers.forEach((c, i) => {
    for (const name of CPU_MEMORY) {
      const containerLimit = c.resources?.limits?.[name];
      const podLimit = limits[name];
      if (containerLimit === undefined || podLimit === undefined || parseQuantity(containerLimit, 3) <= parseQuantity(podLimit, 3)) continue;
      errors.push(invalid(`spec.resources.containers[${i}][${name}].limits`, containerLimit, `must be less than or equal to pod limits of ${podLimit}`));
    }
  });
  return errors;
}

/**
 * The pod-level part of `ValidatePodResize` for pods that have (or are given) pod-level resources:
 * `stop` when the real server returns at once (1.35: the feature gate's refusal).
 */
export function podLevelResizeErrors(before: Pod, after: Pod, version: ServerVersion): { errors: FieldError[]; stop: boolean } {
  if (!hasPodLevelResources(before) && !hasPodLevelResources(after)) return { errors: [], stop: false };
  if (!resizesPodLevelResources(version)) {
    return {
      errors: [
        forbidden(ROOT, 'resize of pods with pod-level resources is forbidden when InPlacePodLevelResourcesVerticalScalingEnabled feature gate is disabled'),
      ],
      stop: true,
    };
  }
  const old = before.spec.resources;
  const now = after.spec.resources;
  if (old !== undefined && now === undefined) return { errors: [forbidden('spec.resources', 'pod-level resources cannot be removed')], stop: false };
  const errors: FieldError[] = [];
  const removed = (n: ResourceList | undefined, o: ResourceList | undefined) => Object.keys(o ?? {}).some((k) => n?.[k] === undefined);
  if (old !== undefined) {
    if (removed(now?.requests, old.requests)) errors.push(forbidden('spec.resources.requests', 'pod-level resource requests cannot be removed'));
    if (removed(now?.limits, old.limits)) errors.push(forbidden('spec.resources.limits', 'pod-level resource limits cannot be removed'));
  }
  if (!onlyCpuMemoryChanged(now, old)) errors.push(forbidden('spec', 'only cpu and memory resources are mutable at pod-level'));
  return { errors, stop: false };
}

/** `dropCPUMemoryResourceRequirementsUpdates` then DeepEqual: the pod-level resources differ only in cpu and memory. */
function onlyCpuMemoryChanged(now: ResourceRequirements | undefined, old: ResourceRequirements | undefined): boolean {
  if (now === undefined) return old === undefined;
  const munge = (list: ResourceList | undefined, oldList: ResourceList | undefined): ResourceList | undefined => {
    if (list === undefined && oldList === undefined) return undefined;
    const out: ResourceList = { ...(list ?? {}) };
    for (const r of CPU_MEMORY) {
      delete out[r];
      if (oldList?.[r] !== undefined) out[r] = oldList[r];
    }
    return out;
  };
  const requests = munge(now.requests, old?.requests);
  const limits = munge(now.limits, old?.limits);
  const rest = Object.keys(now).filter((k) => k !== 'requests' && k !== 'limits');
  const empty = (l: ResourceList | undefined) => Object.keys(l ?? {}).length === 0;
  if (old === undefined) return empty(requests) && empty(limits) && rest.length === 0;
  const canonical = (l: ResourceList | undefined) => JSON.stringify(Object.entries(l ?? {}).sort(([a], [b]) => a.localeCompare(b)));
  const oldRest = Object.keys(old).filter((k) => k !== 'requests' && k !== 'limits');
  return (
    canonical(requests) === canonical(old.requests) &&
    canonical(limits) === canonical(old.limits) &&
    JSON.stringify(rest.map((k) => [k, now[k]])) === JSON.stringify(oldRest.map((k) => [k, old[k]]))
  );
}

/**
 * The resize strategy's pod-level part: `pod` (the stored pod with the request's container fields)
 * gets the request's `spec.resources` from 1.36; from 1.37 a request without them keeps the stored
 * ones (for clients that do not know the field) and they are defaulted as at creation.
 */
export function takePodLevelResources(pod: Pod, requested: Pod, stored: Pod, version: ServerVersion): void {
  if (!resizesPodLevelResources(version)) return;
  let resources = requested.spec.resources;
  if (resources === undefined && defaultsPodLevelResourcesOnResize(version)) resources = stored.spec.resources;
  if (resources === undefined) {
    delete pod.spec.resources;
    return;
  }
  pod.spec.resources = clone(resources);
  canonicalizeResourceList(pod.spec.resources.requests);
  canonicalizeResourceList(pod.spec.resources.limits);
  if (defaultsPodLevelResourcesOnResize(version)) defaultPodLevelResources(pod);
}

/**
 * 1.37's `DefaultPodLevelResources` for cpu and memory: a pod-level request left out is the
 * containers' aggregate request, else the pod-level limit; a pod-level limit left out where there
 * is a request and every container has a limit is the larger of the request and their sum.
 */
export function defaultPodLevelResources(pod: Pod): void {
  const resources = pod.spec.resources;
  if (resources === undefined || !hasPodLevelResources(pod)) return;
  const requests: ResourceList = { ...(resources.requests ?? {}) };
  const aggregate = aggregateRequests(pod);
  for (const name of CPU_MEMORY) {
    const containers = aggregate.get(name);
    if (requests[name] === undefined && containers !== undefined) requests[name] = formatQuantity(containers.milli, containers.like);
  }
  for (const name of CPU_MEMORY) {
    const limit = resources.limits?.[name];
    if (requests[name] === undefined && limit !== undefined) requests[name] = limit;
  }
  if (Object.keys(requests).length > 0) resources.requests = requests;
  const all = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
  for (const name of CPU_MEMORY) {
    const request = requests[name];
    if (request === undefined || resources.limits?.[name] !== undefined) continue;
    if (!all.every((c) => c.resources?.limits?.[name] !== undefined)) continue;
    const like = all[0]!.resources!.limits![name]!;
    const sum = all.reduce((total, c) => total + parseQuantity(c.resources!.limits![name]!, 3), 0);
    resources.limits = { ...(resources.limits ?? {}), [name]: sum >= parseQuantity(request, 3) ? formatQuantity(sum, like) : request };
  }
}
