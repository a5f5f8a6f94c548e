/**
 * The LimitRanger admission plugin for pods: on CREATE, containers without a request or limit get
 * the namespace's LimitRange `defaultRequest` / `default` (type Container); then every container
 * (type Container) and the pod's sums (type Pod) are checked against `min`, `max` and
 * `maxLimitRequestRatio`. A violation is 403 Forbidden in the real wording, e.g.
 * `pods "web" is forbidden: maximum cpu usage per Container is 2, but limit is 4`.
 * LimitRange objects are defaulted like the API does: `default` from `max`, `defaultRequest`
 * from `default` (else `min`).
 */
import { parseCpu, parseMemory } from 'kube-basics/quantity';
import type { AdmissionPlugin } from './admission.ts';
import { forbidden } from './api-error.ts';
import type { ObjectStore } from './object-store.ts';
import type { Defaulter } from './object-hooks.ts';
import { isPlainObject, type KubeObject } from './types.ts';

type Resources = Record<string, string | number>;

interface LimitItem {
  type: 'Container' | 'Pod' | string;
  min?: Resources;
  max?: Resources;
  default?: Resources;
  defaultRequest?: Resources;
  maxLimitRequestRatio?: Resources;
}

interface Container {
  name: string;
  resources?: { requests?: Resources; limits?: Resources };
}

/** Parses cpu into millicores and anything else into base units, for comparisons. */
function amount(resource: string, value: string | number): number {
  return resource === 'cpu' ? parseCpu(value) : parseMemory(value);
}

function items(store: ObjectStore, namespace: string): LimitItem[] {
  return store.list('limitranges', namespace).flatMap((lr) => ((lr.spec as { limits?: LimitItem[] } | undefined)?.limits ?? []));
}

/** Applies LimitRange defaults to the containers of a pod (in place). */
export function applyLimitRangeDefaults(pod: KubeObject, limits: readonly LimitItem[]): void {
  const spec = (pod.spec ?? {}) as { containers?: Container[]; initContainers?: Container[] };
  for (const item of limits.filter((l) => l.type === 'Container')) {
    for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
      const resources = (c.resources ??= {});
      for (const [r, v] of Object.entries(item.default ?? {})) {
        resources.limits ??= {};
        if (resources.limits[r] === undefined) resources.limits[r] = v;
      }
      for (const [r, v] of Object.entries(item.defaultRequest ?? {})) {
        resources.requests ??= {};
        if (resources.requests[r] === undefined) resources.requests[r] = v;
      }
    }
  }
}

function checkOne(kind: 'Container' | 'Pod', item: LimitItem, requests: Resources, limits: Resources): string[] {
  const errors: string[] = [];
  for (const [r, min] of Object.entries(item.min ?? {})) {
    const request = requests[r];
    if (request === undefined) errors.push(`minimum ${r} usage per ${kind} is ${min}.  No request is specified`);
    else if (amount(r, request) < amount(r, min)) errors.push(`minimum ${r} usage per ${kind} is ${min}, but request is ${request}`);
  }
  for (const [r, max] of Object.entries(item.max ?? {})) {
    const limit = limits[r];
    if (limit === undefined) errors.push(`maximum ${r} usage per ${kind} is ${max}.  No limit is specified`);
    else if (amount(r, limit) > amount(r, max)) errors.push(`maximum ${r} usage per ${kind} is ${max}, but limit is ${limit}`);
  }
  for (const [r, ratio] of Object.entries(item.maxLimitRequestRatio ?? {})) {
    const request = requests[r];
    const limit = limits[r];
    if (request === undefined || limit === undefined) continue;
    const actual = amount(r, limit) / amount(r, request);
    if (actual > Number(ratio)) errors.push(`${r} max limit to request ratio per ${kind} is ${ratio}, but provided ratio is ${actual.toFixed(6)}`);
  }
  return errors;
}

function sumOver(containers: Container[], field: 'requests' | 'limits'): Resources {
  const out: Record<string, number> = {};
  for (const c of containers) {
    for (const [r, v] of Object.entries(c.resources?.[field] ?? {})) out[r] = (out[r] ?? 0) + amount(r, v);
  }
  // Sums are compared as numbers: keep cpu in millicores with an `m` suffix, memory in bytes.
  return Object.fromEntries(Object.entries(out).map(([r, v]) => [r, r === 'cpu' ? `${v}m` : v]));
}

/** The violations of a pod against LimitRange items (empty when it fits). */
export function limitRangeViolations(pod: KubeObject, limits: readonly LimitItem[]): string[] {
  const spec = (pod.spec ?? {}) as { containers?: Container[] };
  const containers = spec.containers ?? [];
  const errors: string[] = [];
  for (const item of limits) {
    if (item.type === 'Container') {
      for (const c of containers) errors.push(...checkOne('Container', item, c.resources?.requests ?? {}, c.resources?.limits ?? {}));
    } else if (item.type === 'Pod') {
      errors.push(...checkOne('Pod', item, sumOver(containers, 'requests'), sumOver(containers, 'limits')));
    }
  }
  return errors;
}

/** The LimitRanger plugin (pod CREATE). */
export function limitRangerPlugin(store: ObjectStore): AdmissionPlugin {
  const applies = (a: { group: string; resource: string; subresource: string; operation: string }): boolean => a.group === '' && a.resource === 'pods' && a.subresource === '' && a.operation === 'CREATE';
  return {
    name: 'LimitRanger',
    mutate(a) {
      if (!applies(a) || !a.object) return;
      const limits = items(store, a.namespace);
      if (limits.length > 0) applyLimitRangeDefaults(a.object, limits);
    },
    validate(a) {
      if (!applies(a) || !a.object) return;
      const errors = limitRangeViolations(a.object, items(store, a.namespace));
      if (errors.length === 0) return;
      throw forbidden({ resource: 'pods', group: '', name: a.name }, errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`);
    },
  };
}

/** API defaulting of LimitRange items: default from max, defaultRequest from default or min. */
export const limitRangeDefaulter: Defaulter = (obj, type) => {
  if (type.group !== '' || type.kind !== 'LimitRange') return;
  const limits = (obj.spec as { limits?: LimitItem[] } | undefined)?.limits;
  if (!Array.isArray(limits)) return;
  for (const item of limits) {
    if (!isPlainObject(item) || item.type !== 'Container') continue;
    for (const [r, v] of Object.entries(item.max ?? {})) {
      item.default ??= {};
      if (item.default[r] === undefined) item.default[r] = v;
    }
    for (const [r, v] of Object.entries(item.default ?? {})) {
      item.defaultRequest ??= {};
      if (item.defaultRequest[r] === undefined) item.defaultRequest[r] = v;
    }
    for (const [r, v] of Object.entries(item.min ?? {})) {
      item.defaultRequest ??= {};
      if (item.defaultRequest[r] === undefined) item.defaultRequest[r] = v;
    }
  }
};
