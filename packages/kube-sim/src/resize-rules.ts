/**
 * What the API server enforces on `PATCH pods/{name}/resize` (1.33+), and on a pod update that
 * changes container resources (1.32, where resources were patched on the pod itself).
 *
 * Input: the stored pod (`before`), the pod with the request body applied (`after`), the server
 * version. Output: the pod to store (only container `resources` and `resizePolicy` taken from
 * `after`, and from 1.36 the pod-level `spec.resources`: pod-level-resize-rules.ts, `metadata.generation` + 1 when the spec changed) or the Status the real server answers
 * (422 Invalid with causes, 400 BadRequest for an unparseable quantity). The rules and wordings are
 * those of `ValidatePodResize` (pkg/apis/core/validation) and the resize strategy
 * (pkg/registry/core/pod); see docs/decisions/0030-resize-rules.md.
 */
import { isQuantity, parseQuantity } from 'kube-basics/quantity';
import { forbidden, invalid, invalidStatus, failureStatus, type FieldError, type StatusObject } from './field-errors.ts';
import { MIRROR_POD_ANNOTATION, clone, type Container, type Pod, type ResourceList } from './objects.ts';
import { computeQosClass, computeQosClassByContainer, recordedQosClass } from './qos.ts';
import { isSidecar } from './pod-resources.ts';
import { podLevelResizeErrors, podLevelSpecErrors, takePodLevelResources } from './pod-level-resize-rules.ts';
import { forbidsMemoryLimitDecrease, minorOf, type ServerVersion } from './server-version.ts';
import { canonicalizeResourceList } from './apiserver/quantity-canonical.ts';

export type ResizeOutcome = { ok: true; pod: Pod } | { ok: false; status: StatusObject };

const MUTABLE = ['cpu', 'memory'];
const RESTART_POLICIES = ['NotRequired', 'RestartContainer'];

/** Validates a resize request; see the module comment. */
export function validateResize(before: Pod, after: Pod, version: ServerVersion): ResizeOutcome {
  const name = before.metadata.name ?? '';
  const bad = badQuantity(after);
  if (bad !== undefined) return { ok: false, status: cannotBeHandled() };
  const candidate = takeResizeFields(before, applyRequestDefaults(after), version);
  const errors = resizeErrors(before, candidate, version);
  if (errors.length > 0) return { ok: false, status: invalidStatus('Pod', '', name, errors) };
  return { ok: true, pod: candidate };
}

/**
 * 1.32: the resource part of `ValidatePodUpdate` for a plain pod update that changes container
 * resources. Returns field errors to add to the update's other validation (empty when fine).
 */
export function legacyResourceUpdateErrors(before: Pod, after: Pod): FieldError[] {
  // Ordinary validation (requests <= limits, quantities) is the API server's own; this adds the
  // resize-specific part of the 1.2x-1.32 ValidatePodUpdate.
  const candidate = applyRequestDefaults(after);
  const errors: FieldError[] = [];
  if (recordedQosClass(before) !== computeQosClass(candidate)) {
    errors.push(invalid('metadata', before.status?.qosClass ?? '', 'Pod QoS is immutable'));
  }
  if (resourcesChanged(before, candidate) && !nodeSupportsResize(before)) {
    errors.push(forbidden('spec', 'Pod running on node without support for resize'));
  }
  return errors;
}

/** Whether any container's cpu/memory requests or limits differ between two pods. */
export function resourcesChanged(before: Pod, after: Pod): boolean {
  const all = (p: Pod) => [...(p.spec.initContainers ?? []), ...p.spec.containers];
  const a = all(before);
  const b = all(after);
  if (a.length !== b.length) return true;
  return a.some((c, i) => JSON.stringify(c.resources ?? {}) !== JSON.stringify(b[i]?.resources ?? {}));
}

function resizeErrors(before: Pod, after: Pod, version: ServerVersion): FieldError[] {
  const errors: FieldError[] = [...specErrors(after), ...podLevelSpecErrors(after)];
  // field.NewPath("") prints as "[]" (recorded for the pod-level refusal on 1.35.4; the same path here).
  if (before.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return [forbidden('[]', 'static pods cannot be resized')];
  if (before.spec.os?.name === 'windows') return [forbidden('[]', 'windows pods cannot be resized')];

  const qosOf = minorOf(version) >= 37 ? computeQosClassByContainer : computeQosClass;
  if (recordedQosClass(before) !== qosOf(after)) {
    errors.push(invalid('spec', before.status?.qosClass ?? '', 'Pod QOS Class may not change as a result of resizing'));
  }
  if (!nodeSupportsResize(before)) errors.push(forbidden('spec', 'Pod running on node without support for resize'));
  const podLevel = podLevelResizeErrors(before, after, version);
  errors.push(...podLevel.errors);
  if (podLevel.stop) return errors;

  const ordering = orderingErrors(before, after);
  if (ordering.length > 0) return [...errors, ...ordering];

  (before.spec.initContainers ?? []).forEach((old, i) => {
    if (!isSidecar(old)) return;
    errors.push(...containerResizeErrors(after.spec.initContainers![i]!, old, `spec.initContainers[${i}].resources`, version));
  });
  before.spec.containers.forEach((old, i) => {
    errors.push(...containerResizeErrors(after.spec.containers[i]!, old, `spec.containers[${i}].resources`, version));
  });

  before.spec.containers.forEach((old, i) => {
    if (!sameExceptCpuMemory(after.spec.containers[i]!, old)) errors.push(forbidden('spec', 'only cpu and memory resources are mutable'));
  });
  (before.spec.initContainers ?? []).forEach((old, i) => {
    const now = after.spec.initContainers![i]!;
    if (isSidecar(old)) {
      if (!sameExceptCpuMemory(now, old)) errors.push(forbidden('spec', 'only cpu and memory resources for sidecar containers are mutable'));
    } else if (
      JSON.stringify(now.resources ?? {}) !== JSON.stringify(old.resources ?? {}) ||
      JSON.stringify(now.resizePolicy) !== JSON.stringify(old.resizePolicy)
    ) {
      errors.push(forbidden('spec', 'resources for non-sidecar init containers are immutable'));
    }
  });
  return errors;
}

/** Adding, removing, renaming or reordering containers is invalid on resize. */
function orderingErrors(before: Pod, after: Pod): FieldError[] {
  const errors: FieldError[] = [];
  const check = (old: Container[], now: Container[], path: string) => {
    if (old.length !== now.length) {
      errors.push(forbidden(path, 'containers may not be added or removed on resize'));
      return;
    }
    old.forEach((c, i) => {
      if (now[i]!.name !== c.name) errors.push(forbidden(`${path}[${i}].name`, 'containers may not be renamed or reordered on resize'));
    });
  };
  check(before.spec.containers, after.spec.containers, 'spec.containers');
  check(before.spec.initContainers ?? [], after.spec.initContainers ?? [], 'spec.initContainers');
  return errors;
}

function containerResizeErrors(now: Container, old: Container, path: string, version: ServerVersion): FieldError[] {
  const errors: FieldError[] = [];
  const removed = (n: ResourceList | undefined, o: ResourceList | undefined) => Object.keys(o ?? {}).some((k) => n?.[k] === undefined);
  if (removed(now.resources?.requests, old.resources?.requests)) errors.push(forbidden(`${path}.requests`, 'resource requests cannot be removed'));
  if (removed(now.resources?.limits, old.resources?.limits)) errors.push(forbidden(`${path}.limits`, 'resource limits cannot be removed'));
  if (forbidsMemoryLimitDecrease(version)) {
    const policy = now.resizePolicy?.find((p) => p.resourceName === 'memory')?.restartPolicy ?? 'NotRequired';
    if (policy === 'NotRequired' || policy === '') {
      const newLimit = now.resources?.limits?.memory;
      const oldLimit = old.resources?.limits?.memory;
      if (newLimit !== undefined && oldLimit !== undefined) {
        if (parseQuantity(newLimit) < parseQuantity(oldLimit)) {
          errors.push(forbidden(`${path}.limits[memory]`, 'memory limits cannot be decreased unless resizePolicy is RestartContainer'));
        }
      } else if (newLimit !== undefined) {
        errors.push(forbidden(`${path}.limits[memory]`, 'memory limits cannot be added unless resizePolicy is RestartContainer'));
      }
    }
  }
  return errors;
}

/**
 * The part of ordinary spec validation (`ValidatePodSpec`) a resize can trip: a container's image
 * (a container added by the patch has none), negative quantities (limits, then requests),
 * requests <= limits (reported on `…resources.requests`), resizePolicy values (on `…resizePolicy`).
 */
function specErrors(pod: Pod): FieldError[] {
  const errors: FieldError[] = [];
  const each = (containers: Container[], base: string) =>
    containers.forEach((c, i) => {
      const path = `${base}[${i}]`;
      if (typeof c.image !== 'string' || c.image === '') errors.push({ type: 'FieldValueRequired', field: `${path}.image`, detail: '' });
      const limits = c.resources?.limits ?? {};
      const requests = c.resources?.requests ?? {};
      for (const [kind, list] of [
        ['limits', limits],
        ['requests', requests],
      ] as const) {
        for (const [resource, value] of Object.entries(list)) {
          if (parseQuantity(value, 3) < 0) errors.push(invalid(`${path}.resources.${kind}[${resource}]`, value, 'must be greater than or equal to 0'));
        }
      }
      for (const [resource, request] of Object.entries(requests)) {
        const limit = limits[resource];
        if (limit !== undefined && parseQuantity(request, 3) > parseQuantity(limit, 3)) {
          errors.push(invalid(`${path}.resources.requests`, request, `must be less than or equal to ${resource} limit of ${limit}`));
        }
      }
      (c.resizePolicy ?? []).forEach((p) => {
        if (!MUTABLE.includes(p.resourceName)) {
          errors.push({ type: 'FieldValueNotSupported', field: `${path}.resizePolicy`, value: p.resourceName, detail: 'supported values: "cpu", "memory"' });
        }
        if (!RESTART_POLICIES.includes(p.restartPolicy)) {
          errors.push({
            type: 'FieldValueNotSupported',
            field: `${path}.resizePolicy`,
            value: p.restartPolicy,
            detail: 'supported values: "NotRequired", "RestartContainer"',
          });
        }
      });
    });
  each(pod.spec.initContainers ?? [], 'spec.initContainers');
  each(pod.spec.containers, 'spec.containers');
  return errors;
}

/** The container with its cpu/memory entries replaced by the old ones equals the old container (resizePolicy included). */
function sameExceptCpuMemory(now: Container, old: Container): boolean {
  const munge = (list: ResourceList | undefined, oldList: ResourceList | undefined): ResourceList | undefined => {
    if (oldList === undefined) return undefined;
    const out: ResourceList = { ...(list ?? {}) };
    for (const r of MUTABLE) {
      delete out[r];
      if (oldList[r] !== undefined) out[r] = oldList[r];
    }
    return out;
  };
  const canonical = (list: ResourceList | undefined) => JSON.stringify(Object.entries(list ?? {}).sort(([a], [b]) => a.localeCompare(b)));
  // The whole container is compared (1.35): a resizePolicy changed, added or dropped through
  // pods/resize is "only cpu and memory resources are mutable" too.
  return (
    canonical(munge(now.resources?.limits, old.resources?.limits)) === canonical(old.resources?.limits) &&
    canonical(munge(now.resources?.requests, old.resources?.requests)) === canonical(old.resources?.requests) &&
    JSON.stringify(now.resizePolicy ?? []) === JSON.stringify(old.resizePolicy ?? [])
  );
}

/** The node supports resize when the first running container reports `resources` in its status. */
export function nodeSupportsResize(pod: Pod): boolean {
  const running = (pod.status?.containerStatuses ?? []).find((s) => s.state?.running !== undefined);
  return running === undefined || running.resources !== undefined;
}

/**
 * The resize strategy: start from the stored pod and take only `resources` and `resizePolicy` of
 * each container from the request, and from 1.36 the pod-level `spec.resources`. If containers were added, removed or renamed the request's
 * lists are kept as they are so that validation reports it.
 */
function takeResizeFields(before: Pod, after: Pod, version: ServerVersion): Pod {
  const pod = clone(before);
  const take = (now: Container[], old: Container[]): Container[] => {
    if (now.length !== old.length || now.some((c, i) => c.name !== old[i]!.name)) return clone(now);
    return old.map((c, i) => {
      const merged: Container = { ...clone(c) };
      const src = now[i]!;
      if (src.resources === undefined) delete merged.resources;
      else {
        merged.resources = clone(src.resources);
        canonicalizeResourceList(merged.resources.requests);
        canonicalizeResourceList(merged.resources.limits);
      }
      if (src.resizePolicy === undefined) delete merged.resizePolicy;
      else merged.resizePolicy = clone(src.resizePolicy);
      return merged;
    });
  };
  pod.spec.containers = take(after.spec.containers ?? [], before.spec.containers);
  if (before.spec.initContainers || after.spec.initContainers) {
    pod.spec.initContainers = take(after.spec.initContainers ?? [], before.spec.initContainers ?? []);
  }
  takePodLevelResources(pod, after, before, version);
  if (JSON.stringify(pod.spec) !== JSON.stringify(before.spec)) {
    pod.metadata.generation = (before.metadata.generation ?? 1) + 1;
  }
  return pod;
}

/** API defaulting: a resource with a limit and no request gets the limit as its request. */
function applyRequestDefaults(pod: Pod): Pod {
  const out = clone(pod);
  for (const c of [...(out.spec.initContainers ?? []), ...(out.spec.containers ?? [])]) {
    const limits = c.resources?.limits;
    if (!limits) continue;
    for (const [resource, limit] of Object.entries(limits)) {
      c.resources!.requests ??= {};
      if (c.resources!.requests[resource] === undefined) c.resources!.requests[resource] = limit;
    }
  }
  return out;
}

function badQuantity(pod: Pod): string | undefined {
  for (const c of [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])]) {
    for (const list of [c.resources?.requests, c.resources?.limits]) {
      for (const value of Object.values(list ?? {})) {
        if (!isQuantity(value)) return String(value);
      }
    }
  }
  return undefined;
}

function cannotBeHandled(): StatusObject {
  return failureStatus(
    400,
    'BadRequest',
    `Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
  );
}
