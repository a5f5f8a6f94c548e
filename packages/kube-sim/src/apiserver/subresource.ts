/**
 * The extension point for subresources (`pods/resize`, `pods/eviction`, `<kind>/status`, `<kind>/scale`,
 * ...). A handler is either update-style (GET/PUT/PATCH: it turns the requested subresource object
 * into the new parent object, which then goes through admission, validation and storage with
 * optimistic concurrency) or create-style (POST: it does the work itself and returns a response).
 */
import type { ObjectStore } from './object-store.ts';
import type { ResourceType } from './resource-type.ts';
import type { ApiRequest, ApiResponse } from './request.ts';
import type { KubeObject } from './types.ts';

/** Discovery metadata of a subresource. */
export interface SubresourceDiscovery {
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
}

/** What every subresource handler call gets. */
export interface SubresourceContext {
  request: ApiRequest;
  /** The parent resource type (e.g. pods). */
  type: ResourceType;
  /** The parent object as stored now. */
  current: KubeObject;
  store: ObjectStore;
  /** Current time in ms since epoch. */
  now: number;
}

/** A subresource handler. Provide `update` (with optional `get`) or `create`. */
export interface SubresourceHandler {
  /** GET (and the base a PATCH applies to): the subresource view of the parent. Default: the parent. */
  get?(context: SubresourceContext): KubeObject;
  /**
   * PUT/PATCH: `requested` is the body of a PUT or the patch applied to `get()`. Returns the new
   * parent object to store; its metadata.resourceVersion is checked against the stored one.
   * Throw an ApiError (e.g. `invalid(...)`, `forbidden(...)`) to reject.
   */
  update?(context: SubresourceContext & { requested: KubeObject }): KubeObject;
  /** POST (eviction, binding, token): does the work, returns the response. */
  create?(context: SubresourceContext & { body: unknown }): ApiResponse | Promise<ApiResponse>;
  /** Whether strategic merge patches are accepted (default: when the parent accepts them). */
  strategicMerge?: boolean;
  /** How discovery lists it (default: known shapes for status/scale/eviction/binding/resize). */
  discovery?: SubresourceDiscovery;
}

/** Subresource handlers by `resourceKey/subresource` (e.g. `pods/resize`, `deployments.apps/scale`). */
export class SubresourceRegistry {
  private readonly handlers = new Map<string, SubresourceHandler>();

  /** Registers (or replaces) the handler of `resourceKey/subresource`. Returns an unregister function. */
  register(resourceKey: string, subresource: string, handler: SubresourceHandler): () => void {
    const key = `${resourceKey}/${subresource}`;
    this.handlers.set(key, handler);
    return () => {
      if (this.handlers.get(key) === handler) this.handlers.delete(key);
    };
  }

  /** The handler for a resource's subresource, if any. */
  get(resourceKey: string, subresource: string): SubresourceHandler | undefined {
    return this.handlers.get(`${resourceKey}/${subresource}`);
  }

  /** Subresource names registered for a resource (for discovery). */
  namesFor(resourceKey: string): string[] {
    const prefix = `${resourceKey}/`;
    return [...this.handlers.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  }
}
