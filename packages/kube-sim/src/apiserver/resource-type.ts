/**
 * What the server knows about one kind of resource: its group, versions, names, scope, verbs and
 * subresources. Built-in kinds are listed in `builtin-resources.ts`; CustomResourceDefinitions add
 * more at run time through the {@link ResourceRegistry}.
 */
import type { JsonSchemaProps } from './schema-validation.ts';
import type { KubeObject } from './types.ts';

/** Where a CRD keeps the replicas for its `scale` subresource. */
export interface ScaleSubresourcePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** One kind of resource the server serves. */
export interface ResourceType {
  /** API group; '' for the core group. */
  group: string;
  /** Served versions; the first is the preferred (storage) version. */
  versions: string[];
  /** Lower-case plural name used in URLs, e.g. `pods`. */
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** Has a `status` subresource: the main resource ignores status changes and vice versa. */
  hasStatus: boolean;
  /** Has a `scale` subresource; built-in kinds use `spec.replicas`. */
  scale?: ScaleSubresourcePaths;
  /** Built-in kinds accept strategic merge patches; custom resources do not. */
  strategicMerge: boolean;
  /** For custom resources: the structural schema of each served version. */
  schemas?: Record<string, JsonSchemaProps | undefined>;
  /** For custom resources: the CRD's name. */
  crdName?: string;
  /** Verbs listed in discovery when not the standard eight (e.g. `['create']` for reviews). */
  verbs?: string[];
  /** Not stored: creates are answered by a handler registered with the pipeline. */
  virtual?: boolean;
  /** Stored under another resource's key (events.k8s.io Events live with core Events). */
  storageKey?: string;
  /** Conversion between this type's schema and the stored one (with `storageKey`). */
  storage?: StorageConversion;
}

/** Converts objects between a served schema and the schema they are stored in. */
export interface StorageConversion {
  toStorage(obj: KubeObject): KubeObject;
  fromStorage(obj: KubeObject): KubeObject;
}

/** The key a type's objects are stored under: its own, or the one it shares. */
export function storeKeyOf(type: ResourceType): string {
  return type.storageKey ?? resourceKey(type);
}

/** The stored form of an object of a type (unchanged unless the type converts). */
export function toStorage(type: ResourceType, obj: KubeObject): KubeObject {
  return type.storage ? type.storage.toStorage(obj) : obj;
}

/** The store key of a resource: `pods` for core, `deployments.apps` otherwise. */
export function resourceKey(type: Pick<ResourceType, 'group' | 'plural'>): string {
  return type.group === '' ? type.plural : `${type.plural}.${type.group}`;
}

/** `v1` or `apps/v1`. */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** Splits `apps/v1` into group and version (`v1` -> core). */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The standard verbs of a resource in discovery. */
export const STANDARD_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;
