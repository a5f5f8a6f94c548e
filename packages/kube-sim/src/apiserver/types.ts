/**
 * The shape of a Kubernetes object as kube-sim stores it: plain JSON with typed metadata. The
 * server never needs the full typed models; it reads the fields it enforces rules on.
 */

/** Object metadata fields the server reads or writes. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: unknown[];
  [key: string]: unknown;
}

/** A reference from a dependent to its owner (used for cascading deletion). */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** Any Kubernetes object. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: unknown;
  status?: unknown;
  [key: string]: unknown;
}

/** A JSON value, for code that walks arbitrary objects. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Deep-copies a JSON object (objects in the store are never handed out by reference). */
export function cloneObject<T>(value: T): T {
  return structuredClone(value);
}

/** True for a plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
