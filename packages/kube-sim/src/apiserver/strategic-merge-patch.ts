/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) for built-in kinds: like a merge
 * patch, except that lists with a merge key (containers by `name`, env by `name`, ports by
 * `containerPort`, conditions by `type`, ...) are merged element by element, `finalizers` merge as
 * a set, and the directives `$patch: replace|delete|merge`, `$retainKeys`,
 * `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>` are honoured.
 *
 * Worked example: containers [{name: a, image: x}, {name: b}] patched with
 * {containers: [{name: b, image: y}]} gives [{name: a, image: x}, {name: b, image: y}].
 */
import { isPlainObject } from './types.ts';

/** Merge keys of list fields in built-in kinds, by field name. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  conditions: 'type',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
  resizePolicy: 'resourceName',
  ownerReferences: 'uid',
  taints: 'key',
  addresses: 'type',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
  ephemeralContainerStatuses: 'name',
};

/** Lists of scalars merged as sets. */
const MERGE_PRIMITIVE_LISTS = new Set(['finalizers']);

/** The merge key of a list field of a built-in kind (undefined: the list is atomic). */
export function mergeKeyFor(field: string, patchList: unknown[], baseList: unknown[]): string | undefined {
  if (field === 'ports') {
    const sample = [...patchList, ...baseList].find(isPlainObject);
    if (sample && 'containerPort' in sample) return 'containerPort';
    return 'port';
  }
  return MERGE_KEYS[field];
}

/** Applies a strategic merge patch to a built-in object (inputs are not modified). */
export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  return mergeMap(isPlainObject(target) ? target : {}, patch);
}

function mergeMap(base: Record<string, unknown>, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const directive = patch['$patch'];
  if (directive === 'delete') return undefined;
  if (directive === 'replace') {
    const { $patch: _p, ...rest } = patch;
    return structuredClone(rest);
  }
  const out: Record<string, unknown> = { ...base };
  const orders: [string, unknown[]][] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch') continue;
    if (key === '$retainKeys') continue;
    if (key.startsWith('$setElementOrder/')) {
      orders.push([key.slice('$setElementOrder/'.length), Array.isArray(value) ? value : []]);
      continue;
    }
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const field = key.slice('$deleteFromPrimitiveList/'.length);
      const remove = Array.isArray(value) ? value : [];
      if (Array.isArray(out[field])) out[field] = (out[field] as unknown[]).filter((v) => !remove.includes(v));
      continue;
    }
    if (value === null) {
      delete out[key];
      continue;
    }
    if (Array.isArray(value)) {
      const merged = mergeList(key, Array.isArray(out[key]) ? (out[key] as unknown[]) : [], value);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
      continue;
    }
    if (isPlainObject(value)) {
      const merged = mergeMap(isPlainObject(out[key]) ? (out[key] as Record<string, unknown>) : {}, value);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
      continue;
    }
    out[key] = value;
  }
  for (const [field, order] of orders) {
    if (Array.isArray(out[field])) out[field] = reorder(field, out[field] as unknown[], order);
  }
  const retain = patch['$retainKeys'];
  if (Array.isArray(retain)) {
    for (const key of Object.keys(out)) if (!retain.includes(key)) delete out[key];
  }
  return out;
}

function mergeList(field: string, base: unknown[], patch: unknown[]): unknown[] | undefined {
  const replace = patch.find((e) => isPlainObject(e) && e['$patch'] === 'replace');
  if (replace !== undefined) return structuredClone(patch.filter((e) => e !== replace));
  if (MERGE_PRIMITIVE_LISTS.has(field)) {
    const out = [...base];
    for (const v of patch) if (!out.includes(v)) out.push(v);
    return out;
  }
  const key = mergeKeyFor(field, patch, base);
  if (key === undefined) return structuredClone(patch);
  // As apimachinery's mergeSlice + normalizeElementOrder: the patch's elements (merged with the
  // server's) in patch order, the server-only ones inserted where the server's order puts them
  // before a patched element; a new element goes before the server-only ones.
  const keyOf = (e: unknown): unknown => (isPlainObject(e) ? e[key] : undefined);
  const patchKeys = new Set(patch.filter(isPlainObject).map(keyOf));
  const serverOnly = base.filter((e) => !isPlainObject(e) || !patchKeys.has(keyOf(e)));
  const patched: unknown[] = [];
  for (const element of patch) {
    if (!isPlainObject(element)) {
      patched.push(element);
      continue;
    }
    if (element['$patch'] === 'delete') continue;
    const existing = base.find((e) => isPlainObject(e) && e[key] === element[key]);
    patched.push(existing !== undefined ? mergeMap(existing as Record<string, unknown>, element) : mergeMap({}, element));
  }
  const serverIndex = (e: unknown): number => base.findIndex((b) => isPlainObject(b) && isPlainObject(e) && b[key] === e[key]);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patched.length) {
    if (j >= patched.length) out.push(serverOnly[i++]);
    else if (i >= serverOnly.length) out.push(patched[j++]);
    else {
      const li = serverIndex(serverOnly[i]);
      const ri = serverIndex(patched[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(serverOnly[i++]);
      else out.push(patched[j++]);
    }
  }
  return out;
}

function reorder(field: string, list: unknown[], order: unknown[]): unknown[] {
  const key = MERGE_KEYS[field] ?? (field === 'ports' ? 'containerPort' : undefined);
  const id = (e: unknown): unknown => (key !== undefined && isPlainObject(e) ? e[key] : e);
  const orderIds = order.map(id);
  const rank = (e: unknown): number => {
    const i = orderIds.indexOf(id(e));
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return list
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
    .map((x) => x.e);
}
