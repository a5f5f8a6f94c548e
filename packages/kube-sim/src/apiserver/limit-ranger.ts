/**
 * The LimitRanger admission plugin for pods: on CREATE, containers without a request or limit get
 * the namespace's LimitRange `defaultRequest` / `default` (type Container); then every container
 * and init container (type Container) and the pod's totals (type Pod) are checked against `min`,
 * `max` and `maxLimitRequestRatio`, both requests and limits against min and max as the real
 * plugin does. Pod totals are summed like the real `podRequests`/`podLimits`: containers plus
 * sidecars (restartable init containers), or the largest init container (with the sidecars
 * started before it) if that is more. A violation is 403 Forbidden in the real wording, with
 * quantities printed canonically as a Quantity's String() does (a sum takes the format of its
 * first term): `pods "web" is forbidden: maximum cpu usage per Pod is 400m, but limit is 800m`,
 * `minimum memory usage per Pod is 500Mi, but request is 200Mi`.
 * LimitRange objects are defaulted like the API does: `default` from `max`, `defaultRequest`
 * from `default` (else `min`). Not simulated: the checks on the `resize` subresource.
 */
import { parseCpu, parseMemory } from 'kube-basics/quantity';
import type { AdmissionPlugin } from './admission.ts';
import { forbidden } from './api-error.ts';
import type { ObjectStore } from './object-store.ts';
import type { Defaulter } from './object-hooks.ts';
import { isPlainObject, type KubeObject } from './types.ts';
import { formatQuantity } from './quantity-canonical.ts';

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
  restartPolicy?: string;
  resources?: { requests?: Resources; limits?: Resources };
}

/** Parses cpu into millicores and anything else into base units, for comparisons. */
function amount(resource: string, value: string | number): number {
  return resource === 'cpu' ? parseCpu(value) : parseMemory(value);
}

/** A quantity as Quantity.String() prints it (quantity-canonical.ts), in the format of `like`. */
function canonical(resource: string, value: number, like: string | number): string {
  return formatQuantity(resource === 'cpu' ? value : value * 1000, like);
}

/** A resource's total: its value and the first term, whose format a Quantity sum keeps. */
interface Total {
  value: number;
  like: string | number;
}

type Totals = Record<string, Total>;

function totalsOf(list: Resources | undefined): Totals {
  return Object.fromEntries(Object.entries(list ?? {}).map(([r, v]) => [r, { value: amount(r, v), like: v }]));
}

function items(store: ObjectStore, namespace: string): LimitItem[] {
  return store.list('limitranges', namespace).flatMap((lr) => (lr.spec as { limits?: LimitItem[] } | undefined)?.limits ?? []);
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

function checkOne(kind: 'Container' | 'Pod', item: LimitItem, requests: Totals, limits: Totals): string[] {
  const errors: string[] = [];
  const text = (r: string, t: Total) => canonical(r, t.value, t.like);
  const bound = (r: string, v: string | number) => canonical(r, amount(r, v), v);
  for (const [r, min] of Object.entries(item.min ?? {})) {
    const [request, limit] = [requests[r], limits[r]];
    const enforced = amount(r, min);
    if (request === undefined) errors.push(`minimum ${r} usage per ${kind} is ${bound(r, min)}.  No request is specified`);
    else if (request.value < enforced) errors.push(`minimum ${r} usage per ${kind} is ${bound(r, min)}, but request is ${text(r, request)}`);
    else if (limit !== undefined && limit.value < enforced) errors.push(`minimum ${r} usage per ${kind} is ${bound(r, min)}, but limit is ${text(r, limit)}`);
  }
  for (const [r, max] of Object.entries(item.max ?? {})) {
    const [request, limit] = [requests[r], limits[r]];
    const enforced = amount(r, max);
    if (limit === undefined) errors.push(`maximum ${r} usage per ${kind} is ${bound(r, max)}.  No limit is specified`);
    else if (limit.value > enforced) errors.push(`maximum ${r} usage per ${kind} is ${bound(r, max)}, but limit is ${text(r, limit)}`);
    else if (request !== undefined && request.value > enforced)
      errors.push(`maximum ${r} usage per ${kind} is ${bound(r, max)}, but request is ${text(r, request)}`);
  }
  for (const [r, ratio] of Object.entries(item.maxLimitRequestRatio ?? {})) {
    const [request, limit] = [requests[r], limits[r]];
    if (request === undefined || limit === undefined) continue;
    const actual = limit.value / request.value;
    if (actual > Number(ratio)) errors.push(`${r} max limit to request ratio per ${kind} is ${ratio}, but provided ratio is ${actual.toFixed(6)}`);
  }
  return errors;
}

function add(into: Totals, list: Resources | undefined): void {
  for (const [r, v] of Object.entries(list ?? {})) {
    const t = into[r];
    if (t) t.value += amount(r, v);
    else into[r] = { value: amount(r, v), like: v };
  }
}

function maxInto(into: Totals, other: Totals): void {
  for (const [r, t] of Object.entries(other)) {
    const current = into[r];
    if (!current || t.value > current.value) into[r] = { ...t };
  }
}

/** The pod's total requests or limits, as the real LimitRanger sums them (podRequests / podLimits). */
function podTotal(spec: { containers?: Container[]; initContainers?: Container[] }, field: 'requests' | 'limits'): Totals {
  const out: Totals = {};
  for (const c of spec.containers ?? []) add(out, c.resources?.[field]);
  const sidecars: Totals = {};
  const init: Totals = {};
  for (const c of spec.initContainers ?? []) {
    if (c.restartPolicy === 'Always') {
      add(out, c.resources?.[field]);
      add(sidecars, c.resources?.[field]);
      maxInto(init, sidecars);
    } else {
      const tmp: Totals = {};
      add(tmp, c.resources?.[field]);
      for (const [r, t] of Object.entries(sidecars)) {
        if (tmp[r]) tmp[r].value += t.value;
        else tmp[r] = { ...t };
      }
      maxInto(init, tmp);
    }
  }
  maxInto(out, init);
  return out;
}

/** The violations of a pod against LimitRange items (empty when it fits). */
export function limitRangeViolations(pod: KubeObject, limits: readonly LimitItem[]): string[] {
  const spec = (pod.spec ?? {}) as { containers?: Container[]; initContainers?: Container[] };
  const errors: string[] = [];
  for (const item of limits) {
    if (item.type === 'Container') {
      for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
        errors.push(...checkOne('Container', item, totalsOf(c.resources?.requests), totalsOf(c.resources?.limits)));
      }
    } else if (item.type === 'Pod') {
      errors.push(...checkOne('Pod', item, podTotal(spec, 'requests'), podTotal(spec, 'limits')));
    }
  }
  return errors;
}

/** The LimitRanger plugin (pod CREATE). */
export function limitRangerPlugin(store: ObjectStore): AdmissionPlugin {
  const applies = (a: { group: string; resource: string; subresource: string; operation: string }): boolean =>
    a.group === '' && a.resource === 'pods' && a.subresource === '' && a.operation === 'CREATE';
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
