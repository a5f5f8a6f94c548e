/**
 * The resource request pipeline, independent of HTTP: get, list, create, update, patch, delete and
 * deletecollection on resources and subresources, in the real server's order: decode, defaulting,
 * mutating admission, validation, validating admission, storage with optimistic concurrency.
 * Authorization and fault injection happen before (in the HTTP layer); watch is in
 * `watch-session.ts`.
 */
import { randomBytes } from 'node:crypto';
import { AdmissionChain, type AdmissionAttributes, type AdmissionOperation } from './admission.ts';
import { checkStrictFields } from './crd-controller.ts';
import { ApiError, badRequest, conflict, invalid, methodNotSupported, notFound, pathNotFound, type StatusCause } from './api-error.ts';
import { scaleSubresource, statusSubresource } from './builtin-subresources.ts';
import { listObjects } from './list-objects.ts';
import { deletePod } from './pod-deletion.ts';
import { present } from './object-view.ts';
import { managerFromUserAgent, recordManagedFields, type WriteInfo } from './managed-fields.ts';
import { ApplyConflictError } from './field-ownership.ts';
import { cannotBeHandled, hasUnparsableQuantity, patchCannotBeDecoded } from './quantity-decoding.ts';
import type { ObjectStore } from './object-store.ts';
import { applyPatch, patchTypeOf, requireFieldManager } from './patch.ts';
import type { ResourceRegistry } from './resource-registry.ts';
import { apiVersionOf, parseApiVersion, resourceKey, storeKeyOf, toStorage, type ResourceType } from './resource-type.ts';
import type { ApiRequest, ApiResponse } from './request.ts';
import type { SubresourceHandler, SubresourceRegistry } from './subresource.ts';
import type { Defaulter, ObjectValidator } from './object-hooks.ts';
import { cloneObject, isPlainObject, type KubeObject } from './types.ts';

/** What the pipeline is built from. */
export interface PipelineDependencies {
  store: ObjectStore;
  registry: ResourceRegistry;
  subresources: SubresourceRegistry;
  admission: AdmissionChain;
  validators: ObjectValidator[];
  defaulters: Defaulter[];
  /** Clock in ms since epoch. */
  now: () => number;
  /** Whether pods bound to nodes are deleted gracefully (marked, removed later by the kubelet). */
  gracefulPodDeletion?: () => boolean;
  /** Whether a write without fieldManager is recorded under its user agent's prefix. */
  userAgentManagers?: () => boolean;
  /** Create-time preparation after mutating admission (status reset, computed status). */
  preparers?: ((object: KubeObject, type: ResourceType) => void)[];
  /** Handlers of create on virtual (never stored) kinds, by store key. */
  virtualCreates?: Map<string, (request: ApiRequest) => ApiResponse>;
}

/** Kinds whose status a create request cannot set (the real strategies reset it). */
const KEEP_STATUS_ON_CREATE = new Set(['nodes', 'events', 'customresourcedefinitions.apiextensions.k8s.io']);

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Five random characters as the real server appends to generateName. */
export function randomNameSuffix(): string {
  const bytes = randomBytes(5);
  let out = '';
  for (const b of bytes) out += NAME_ALPHABET[b % NAME_ALPHABET.length];
  return out;
}

export { present } from './object-view.ts';

export class RequestPipeline {
  constructor(private readonly deps: PipelineDependencies) {}

  /** Resolves the resource type of a request; 404 when not served. */
  resolve(request: ApiRequest): ResourceType {
    const type = this.deps.registry.lookup(request.group, request.version, request.resource);
    if (!type) throw pathNotFound();
    // A namespaced kind is only listed and watched across namespaces; everything else needs one.
    if (type.namespaced && request.namespace === undefined && request.verb !== 'list' && request.verb !== 'watch') {
      throw pathNotFound();
    }
    return type;
  }

  /** The handler of a subresource, built-in (status, scale) or registered. */
  subresourceHandler(type: ResourceType, subresource: string): SubresourceHandler | undefined {
    const registered = this.deps.subresources.get(resourceKey(type), subresource);
    if (registered) return registered;
    if (subresource === 'status' && type.hasStatus) return statusSubresource;
    if (subresource === 'scale' && type.scale) return scaleSubresource(type.scale, type.crdName === undefined);
    return undefined;
  }

  /** Runs one non-watch request. */
  async execute(request: ApiRequest): Promise<ApiResponse> {
    const type = this.resolve(request);
    if (type.virtual) {
      const handler = this.deps.virtualCreates?.get(resourceKey(type));
      if (request.verb !== 'create' || !handler) throw methodNotSupported(this.target(type), request.verb);
      return handler(request);
    }
    if (request.subresource) return this.executeSubresource(type, request);
    switch (request.verb) {
      case 'get':
        return { status: 200, body: present(type, request.version, this.getOrThrow(type, request)) };
      case 'list':
        return { status: 200, body: this.list(type, request) };
      case 'create':
        return this.create(type, request);
      case 'update':
        return this.update(type, request);
      case 'patch':
        return this.patch(type, request);
      case 'delete':
        return this.delete(type, request);
      case 'deletecollection':
        return this.deleteCollection(type, request);
      default:
        throw methodNotSupported({ resource: type.plural, group: type.group }, request.verb);
    }
  }

  private target(type: ResourceType, name?: string): { resource: string; group: string; name?: string } {
    return name === undefined ? { resource: type.plural, group: type.group } : { resource: type.plural, group: type.group, name };
  }

  private getOrThrow(type: ResourceType, request: ApiRequest): KubeObject {
    const obj = this.deps.store.get(storeKeyOf(type), request.namespace ?? '', request.name ?? '');
    if (!obj) throw notFound(this.target(type, request.name));
    return obj;
  }

  /** A list with selectors and limit/continue paging (see `list-objects.ts`). */
  list(type: ResourceType, request: ApiRequest): Record<string, unknown> {
    return listObjects(this.deps.store, type, request);
  }

  private decodeBody(type: ResourceType, request: ApiRequest, patchBody?: unknown): KubeObject {
    if (!isPlainObject(request.body)) throw badRequest('the body of the request is not a JSON object');
    const obj = cloneObject(request.body) as KubeObject;
    if (type.crdName === undefined && hasUnparsableQuantity(obj)) {
      throw patchBody !== undefined ? patchCannotBeDecoded(patchBody) : cannotBeHandled(type.kind, request.version);
    }
    const expected = apiVersionOf(type.group, request.version);
    if (obj.apiVersion !== undefined && obj.apiVersion !== expected) {
      const { group } = parseApiVersion(String(obj.apiVersion));
      if (group !== type.group || !type.versions.includes(parseApiVersion(String(obj.apiVersion)).version)) {
        throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expected})`);
      }
    }
    if (obj.kind !== undefined && obj.kind !== type.kind) {
      throw badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${type.kind})`);
    }
    obj.apiVersion = expected;
    obj.kind = type.kind;
    if (!isPlainObject(obj.metadata)) obj.metadata = {};
    const validation = request.query['fieldValidation'];
    if (validation === 'Strict') checkStrictFields(type, obj);
    else if (validation === 'Warn' && request.warnings) {
      try {
        checkStrictFields(type, obj);
      } catch (err) {
        const unknown = (err as Error).message.split('strict decoding error: ')[1];
        if (unknown) request.warnings.push(...unknown.split(', '));
      }
    }
    return obj;
  }

  private checkNamespace(type: ResourceType, request: ApiRequest, obj: KubeObject): void {
    if (!type.namespaced) {
      delete obj.metadata.namespace;
      return;
    }
    const ns = request.namespace ?? '';
    if (obj.metadata.namespace && obj.metadata.namespace !== ns) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    obj.metadata.namespace = ns;
  }

  private requireNamespaceExists(type: ResourceType, namespace: string): void {
    if (!type.namespaced) return;
    if (!this.deps.store.get('namespaces', '', namespace)) throw notFound({ resource: 'namespaces', group: '', name: namespace });
  }

  private attributes(
    type: ResourceType,
    request: ApiRequest,
    operation: AdmissionOperation,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
  ): AdmissionAttributes {
    return {
      operation,
      type,
      group: type.group,
      version: request.version,
      resource: type.plural,
      subresource: request.subresource ?? '',
      namespace: type.namespaced ? (request.namespace ?? '') : '',
      name: object?.metadata.name ?? oldObject?.metadata.name ?? request.name ?? '',
      object,
      oldObject,
      user: request.user,
      dryRun: request.query['dryRun'] === 'All',
      options: undefined,
      warnings: request.warnings ?? [],
    };
  }

  private validate(type: ResourceType, operation: 'CREATE' | 'UPDATE', subresource: string, object: KubeObject, oldObject: KubeObject | undefined): void {
    const causes: StatusCause[] = [];
    for (const validator of this.deps.validators) causes.push(...validator({ type, operation, subresource, object, oldObject }));
    if (causes.length > 0) throw invalid(type.kind, type.group, object.metadata.name ?? '', causes);
  }

  /**
   * Admission and validation for a write; returns the object to store. Like the real server,
   * an object changed by mutating admission is defaulted again, and the create-time status
   * (e.g. a pod's qosClass) is computed after mutation.
   */
  private async admit(
    type: ResourceType,
    request: ApiRequest,
    operation: 'CREATE' | 'UPDATE',
    object: KubeObject,
    oldObject: KubeObject | undefined,
  ): Promise<KubeObject> {
    const attrs = this.attributes(type, request, operation, object, oldObject);
    await this.deps.admission.mutate(attrs);
    const admitted = attrs.object as KubeObject;
    for (const defaulter of this.deps.defaulters) defaulter(admitted, type, operation);
    if (operation === 'CREATE') for (const prepare of this.deps.preparers ?? []) prepare(admitted, type);
    this.validate(type, operation, request.subresource ?? '', admitted, oldObject);
    await this.deps.admission.validate(attrs);
    return admitted;
  }

  /** Who is writing (managed-fields.ts): the `fieldManager` query parameter, apply or update, the subresource. */
  private writeInfo(type: ResourceType, request: ApiRequest): WriteInfo {
    const apply = request.verb === 'patch' && patchTypeOf(request.contentType, type.strategicMerge) === 'apply';
    return {
      fieldManager: request.query['fieldManager'] || (this.deps.userAgentManagers?.() ? managerFromUserAgent(request.userAgent) : undefined),
      operation: apply ? 'Apply' : 'Update',
      apiVersion: apiVersionOf(type.group, request.version),
      subresource: request.subresource ?? '',
      now: this.deps.now(),
      ...(apply ? { applied: request.body, force: request.query['force'] === 'true' } : {}),
    };
  }

  private async create(type: ResourceType, request: ApiRequest): Promise<ApiResponse> {
    const obj = this.decodeBody(type, request);
    this.checkNamespace(type, request, obj);
    if (request.name !== undefined) throw methodNotSupported(this.target(type), 'create with a name');
    return { status: 201, body: present(type, request.version, await this.createObject(type, request, obj)) };
  }

  private async createObject(type: ResourceType, request: ApiRequest, obj: KubeObject): Promise<KubeObject> {
    if (obj.metadata.resourceVersion) throw new ApiError(500, 'InternalError', 'resourceVersion should not be set on objects to be created');
    if (!obj.metadata.name && obj.metadata.generateName) obj.metadata.name = `${obj.metadata.generateName}${randomNameSuffix()}`;
    if (!obj.metadata.name) {
      throw invalid(type.kind, type.group, '', [
        { reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' },
      ]);
    }
    this.requireNamespaceExists(type, obj.metadata.namespace ?? '');
    delete obj.metadata.uid;
    delete obj.metadata.creationTimestamp;
    delete obj.metadata.deletionTimestamp;
    delete obj.metadata.generation;
    if (type.hasStatus && !KEEP_STATUS_ON_CREATE.has(resourceKey(type))) delete obj.status;
    for (const defaulter of this.deps.defaulters) defaulter(obj, type, 'CREATE');
    const admitted = await this.admit(type, { ...request, name: obj.metadata.name }, 'CREATE', obj, undefined);
    if (request.query['dryRun'] === 'All') return toStorage(type, admitted);
    recordManagedFields(admitted, undefined, this.writeInfo(type, request));
    return this.deps.store.create(storeKeyOf(type), toStorage(type, admitted));
  }

  private async update(type: ResourceType, request: ApiRequest): Promise<ApiResponse> {
    for (let attempt = 0; ; attempt += 1) {
      const obj = this.decodeBody(type, request);
      this.checkNamespace(type, request, obj);
      if (obj.metadata.name !== request.name) {
        throw badRequest(`the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${request.name ?? ''})`);
      }
      const unconditional = !obj.metadata.resourceVersion;
      try {
        const stored = await this.updateObject(type, request, obj);
        return { status: 200, body: present(type, request.version, stored) };
      } catch (err) {
        // An unconditional update raced with another write during admission: apply it again.
        if (err instanceof ApiError && err.code === 409 && err.reason === 'Conflict' && !(err instanceof ApplyConflictError) && unconditional && attempt < 5)
          continue;
        throw err;
      }
    }
  }

  private async updateObject(type: ResourceType, request: ApiRequest, obj: KubeObject): Promise<KubeObject> {
    const current = this.getOrThrow(type, request);
    if (type.crdName !== undefined && !obj.metadata.resourceVersion) {
      throw invalid(type.kind, type.group, obj.metadata.name ?? '', [
        { reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' },
      ]);
    }
    if (obj.metadata.resourceVersion && obj.metadata.resourceVersion !== current.metadata.resourceVersion) {
      throw conflict(this.target(type, obj.metadata.name));
    }
    obj.metadata.uid = current.metadata.uid;
    obj.metadata.creationTimestamp = current.metadata.creationTimestamp;
    obj.metadata.generation = current.metadata.generation;
    if (type.hasStatus) {
      if (current.status === undefined) delete obj.status;
      else obj.status = current.status;
    }
    for (const defaulter of this.deps.defaulters) defaulter(obj, type, 'UPDATE');
    const admitted = await this.admit(type, request, 'UPDATE', obj, present(type, request.version, current));
    if (!admitted.metadata.resourceVersion) admitted.metadata.resourceVersion = current.metadata.resourceVersion;
    if (request.query['dryRun'] === 'All') return toStorage(type, admitted);
    recordManagedFields(admitted, present(type, request.version, current), this.writeInfo(type, request));
    return this.deps.store.update(storeKeyOf(type), toStorage(type, admitted));
  }

  private async patch(type: ResourceType, request: ApiRequest): Promise<ApiResponse> {
    const patchType = patchTypeOf(request.contentType, type.strategicMerge);
    if (patchType === 'apply') requireFieldManager(request.query);
    for (let attempt = 0; ; attempt += 1) {
      const current = this.deps.store.get(storeKeyOf(type), request.namespace ?? '', request.name ?? '');
      if (!current) {
        if (patchType !== 'apply') throw notFound(this.target(type, request.name));
        const created = applyPatch(patchType, { metadata: {} }, request.body, type.strategicMerge);
        const obj = this.decodeBody(type, { ...request, body: created }, request.body);
        this.checkNamespace(type, request, obj);
        if (obj.metadata.name !== request.name)
          throw badRequest(`the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${request.name ?? ''})`);
        return { status: 201, body: present(type, request.version, await this.createObject(type, request, obj)) };
      }
      const patched = applyPatch(patchType, present(type, request.version, current), request.body, type.strategicMerge);
      const obj = this.decodeBody(type, { ...request, body: patched }, request.body);
      this.checkNamespace(type, request, obj);
      if (obj.metadata.name !== request.name) {
        throw badRequest(`the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${request.name ?? ''})`);
      }
      const pinned = obj.metadata.resourceVersion !== current.metadata.resourceVersion;
      try {
        const stored = await this.updateObject(type, request, obj);
        return { status: 200, body: present(type, request.version, stored) };
      } catch (err) {
        // A concurrent write between read and store: retry unless the patch pinned a version.
        if (err instanceof ApiError && err.code === 409 && err.reason === 'Conflict' && !(err instanceof ApplyConflictError) && !pinned && attempt < 5)
          continue;
        throw err;
      }
    }
  }

  private async delete(type: ResourceType, request: ApiRequest): Promise<ApiResponse> {
    const current = this.getOrThrow(type, request);
    const options = isPlainObject(request.body) ? request.body : {};
    const attrs = this.attributes(type, request, 'DELETE', undefined, present(type, request.version, current));
    attrs.options = options;
    await this.deps.admission.mutate(attrs);
    await this.deps.admission.validate(attrs);
    if (request.query['dryRun'] === 'All' || (Array.isArray(options['dryRun']) && options['dryRun'].includes('All'))) {
      return { status: 200, body: present(type, request.version, current) };
    }
    const propagation = (options['propagationPolicy'] ?? request.query['propagationPolicy']) as 'Background' | 'Foreground' | 'Orphan' | undefined;
    const preconditions = isPlainObject(options['preconditions']) ? (options['preconditions'] as { uid?: string; resourceVersion?: string }) : undefined;
    const deleteOptions: { propagationPolicy?: 'Background' | 'Foreground' | 'Orphan'; preconditions?: { uid?: string; resourceVersion?: string } } = {};
    if (propagation) deleteOptions.propagationPolicy = propagation;
    if (preconditions) deleteOptions.preconditions = preconditions;
    if (type.kind === 'Namespace' && type.group === '') this.deps.store.deleteNamespaceContents(request.name ?? '');
    const grace =
      options['gracePeriodSeconds'] ?? (request.query['gracePeriodSeconds'] !== undefined ? Number(request.query['gracePeriodSeconds']) : undefined);
    const result =
      type.group === '' && type.kind === 'Pod'
        ? deletePod(
            this.deps.store,
            request.namespace ?? '',
            request.name ?? '',
            { ...deleteOptions, ...(typeof grace === 'number' ? { gracePeriodSeconds: grace } : {}) },
            this.deps.now(),
            this.deps.gracefulPodDeletion?.() ?? false,
          )
        : this.deps.store.delete(storeKeyOf(type), request.namespace ?? '', request.name ?? '', deleteOptions);
    return { status: result.finalizing ? 202 : 200, body: present(type, request.version, result.object) };
  }

  private async deleteCollection(type: ResourceType, request: ApiRequest): Promise<ApiResponse> {
    const list = this.list(type, { ...request, query: { ...request.query, limit: '0', continue: '' } });
    const items = list['items'] as KubeObject[];
    const deleted: KubeObject[] = [];
    for (const item of items) {
      const response = await this.delete(type, { ...request, verb: 'delete', namespace: item.metadata.namespace, name: item.metadata.name });
      deleted.push(response.body as KubeObject);
    }
    return { status: 200, body: { ...list, items: deleted } };
  }

  private async executeSubresource(type: ResourceType, request: ApiRequest): Promise<ApiResponse> {
    const sub = request.subresource ?? '';
    const handler = this.subresourceHandler(type, sub);
    if (!handler || request.name === undefined) throw pathNotFound();
    const current = this.getOrThrow(type, request);
    const context = { request, type, current, store: this.deps.store, now: this.deps.now() };
    const view = (obj: KubeObject): KubeObject => (handler.get ? handler.get({ ...context, current: obj }) : present(type, request.version, obj));
    switch (request.verb) {
      case 'get':
        if (!handler.get && !handler.update) throw methodNotSupported(this.target(type, request.name), 'get');
        return { status: 200, body: view(current) };
      case 'create':
        if (!handler.create) throw methodNotSupported(this.target(type, request.name), 'create');
        return handler.create({ ...context, body: request.body });
      case 'update':
      case 'patch': {
        if (!handler.update) throw methodNotSupported(this.target(type, request.name), request.verb);
        const update = handler.update.bind(handler);
        for (let attempt = 0; ; attempt += 1) {
          const latest = this.getOrThrow(type, request);
          const base = view(latest);
          let requested: KubeObject;
          if (request.verb === 'update') {
            if (!isPlainObject(request.body)) throw badRequest('the body of the request is not a JSON object');
            requested = cloneObject(request.body) as KubeObject;
            if (!isPlainObject(requested.metadata)) requested.metadata = {};
            if (type.crdName === undefined && hasUnparsableQuantity(requested)) throw cannotBeHandled(type.kind, request.version);
          } else {
            const patchType = patchTypeOf(request.contentType, handler.strategicMerge ?? type.strategicMerge);
            if (patchType === 'apply') requireFieldManager(request.query);
            requested = applyPatch(patchType, base, request.body, handler.strategicMerge ?? type.strategicMerge);
            if (!isPlainObject(requested.metadata)) requested.metadata = {};
            if (type.crdName === undefined && hasUnparsableQuantity(requested)) throw patchCannotBeDecoded(request.body);
          }
          if (requested.metadata.name !== undefined && requested.metadata.name !== request.name) {
            throw badRequest(`the name of the object (${requested.metadata.name}) does not match the name on the URL (${request.name})`);
          }
          const pinned =
            request.verb === 'update' ? Boolean(requested.metadata.resourceVersion) : requested.metadata.resourceVersion !== base.metadata.resourceVersion;
          try {
            if (requested.metadata.resourceVersion && requested.metadata.resourceVersion !== latest.metadata.resourceVersion) {
              throw conflict(this.target(type, request.name));
            }
            const next = update({ ...context, current: latest, requested });
            const admitted = await this.admit(type, request, 'UPDATE', next, latest);
            if (request.query['dryRun'] === 'All') return { status: 200, body: view(admitted) };
            if (!admitted.metadata.resourceVersion) admitted.metadata.resourceVersion = latest.metadata.resourceVersion;
            recordManagedFields(admitted, present(type, request.version, latest), this.writeInfo(type, request));
            const stored = this.deps.store.update(storeKeyOf(type), toStorage(type, admitted));
            return { status: 200, body: view(stored) };
          } catch (err) {
            if (err instanceof ApiError && err.code === 409 && err.reason === 'Conflict' && !(err instanceof ApplyConflictError) && !pinned && attempt < 5)
              continue;
            throw err;
          }
        }
      }
      default:
        throw methodNotSupported(this.target(type, request.name), request.verb);
    }
  }
}
