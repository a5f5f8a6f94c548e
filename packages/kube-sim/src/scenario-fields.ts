/**
 * Reading fields of a parsed YAML document with errors that name the field's path
 * (`nodes[0].cpu: "lots" is not a quantity (e.g. 500m, 2, 512Mi)`), for scenario files.
 */
import { isQuantity } from 'kube-basics/quantity';

/** A scenario that cannot be used; the message starts with the path of the bad field. */
export class ScenarioError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ScenarioError';
  }
}

/** A YAML mapping. */
export type Obj = Record<string, unknown>;

/** Throws a ScenarioError for the field at `path`. */
export function fail(path: string, message: string): never {
  throw new ScenarioError(`${path}: ${message}`);
}
/** The value as a mapping. */
export function obj(v: unknown, path: string): Obj {
  if (!v || typeof v !== 'object' || Array.isArray(v)) fail(path, 'must be a mapping');
  return v as Obj;
}
/** Rejects fields other than `keys`. */
export function onlyKeys(o: Obj, keys: string[], path: string): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) fail(`${path}.${k}`, `unknown field (expected one of ${keys.join(', ')})`);
}
/** A non-empty string, or `fallback` when absent. */
export function str(v: unknown, path: string, fallback?: string): string {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'string' || v.length === 0) fail(path, 'must be a non-empty string');
  return v;
}
/** A finite number >= `min`, or `fallback` when absent. */
export function num(v: unknown, path: string, fallback: number, min = 0): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min) fail(path, `must be a number >= ${min}`);
  return v;
}
/** A Kubernetes quantity (numbers are accepted as written). */
export function quantity(v: unknown, path: string): string {
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s !== 'string' || !isQuantity(s)) fail(path, `${JSON.stringify(v)} is not a quantity (e.g. 500m, 2, 512Mi)`);
  return s;
}
/** A mapping of strings (labels). */
export function stringMap(v: unknown, path: string): Record<string, string> {
  if (v === undefined) return {};
  const o = obj(v, path);
  for (const [k, val] of Object.entries(o)) if (typeof val !== 'string') fail(`${path}.${k}`, 'must be a string');
  return o as Record<string, string>;
}
/** A resource list of quantities, or undefined when absent. */
export function resourceMap(v: unknown, path: string): Record<string, string> | undefined {
  if (v === undefined) return undefined;
  return Object.fromEntries(Object.entries(obj(v, path)).map(([k, q]) => [k, quantity(q, `${path}.${k}`)]));
}
/** A list, empty when absent. */
export function list(v: unknown, path: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(path, 'must be a list');
  return v;
}
