/**
 * The in-memory object store: objects by resource, namespace and name, one global resourceVersion
 * counter (like etcd's revision), uid and creationTimestamp on create, `metadata.generation`
 * bumped when anything but metadata and status changes, finalizers (deletionTimestamp until the
 * last finalizer goes), cascading deletion of dependents through ownerReferences, a bounded event
 * history per resource for watch resumption, and in-process subscribers.
 *
 * Objects in the store are deep-frozen and handed out by reference: clone before modifying.
 * The store enforces no API rules besides optimistic concurrency; the request pipeline does.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { alreadyExists, conflict, notFound } from './api-error.ts';
import { EventHistory } from './event-history.ts';
import type { ChangeType, StoreEvent, StoreListener } from './store-event.ts';
import { cloneObject, type KubeObject } from './types.ts';

/** Options of {@link ObjectStore}. */
export interface ObjectStoreOptions {
  /** Clock in ms since epoch, for creationTimestamp and deletionTimestamp. */
  now: () => number;
  /** Events kept per resource for watch resumption (default 10,000). */
  historyCapacity?: number;
  /** Called when a listener throws; the event still reaches the other listeners. */
  onListenerError?: (err: unknown, event: StoreEvent) => void;
  /**
   * Resources whose metadata.generation the server does not populate: created without one and
   * never bumped (pods before 1.33; KEP-5067 made a pod's generation 1 and bumped it on spec changes).
   */
  untrackedGeneration?: ReadonlySet<string>;
}

/** Options of {@link ObjectStore.update}. */
export interface UpdateOptions {
  /** Reject with 409 when the object's metadata.resourceVersion is set and stale (default true). */
  checkResourceVersion?: boolean;
  /**
   * Keep metadata.generation even when the spec part changed: for writes the real API server makes
   * outside the resource's update strategy, such as `pods/binding` setting `spec.nodeName`.
   */
  keepGeneration?: boolean;
}

/** Options of {@link ObjectStore.delete}. */
export interface DeleteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
  /** `Orphan` keeps dependents; otherwise dependents are deleted too (default Background). */
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
}

/** Result of a delete: the last state, and whether it is only marked (finalizers pending). */
export interface DeleteResult {
  object: KubeObject;
  finalizing: boolean;
}

type Bucket = Map<string, Map<string, KubeObject>>;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}

/**
 * The first mark for deletion (graceful, or held by finalizers) bumps a set generation, as the
 * real server does so that controllers see the change of behaviour: a pod at 1 goes to 2.
 */
function bumpGeneration(obj: KubeObject): void {
  if ((obj.metadata.generation ?? 0) > 0) obj.metadata.generation = (obj.metadata.generation ?? 0) + 1;
}

function specPart(obj: KubeObject): Record<string, unknown> {
  // Everything but metadata and status counts as spec for metadata.generation.
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = obj;
  return rest;
}

function describe(resource: string): { resource: string; group: string } {
  const dot = resource.indexOf('.');
  return dot < 0 ? { resource, group: '' } : { resource: resource.slice(0, dot), group: resource.slice(dot + 1) };
}

interface ObjectRef {
  resource: string;
  namespace: string;
  name: string;
}

export class ObjectStore {
  private revision = 0;
  private readonly buckets = new Map<string, Bucket>();
  private readonly histories = new Map<string, EventHistory>();
  private readonly listeners = new Map<string, Set<StoreListener>>();
  private readonly byUid = new Map<string, ObjectRef>();
  private readonly dependents = new Map<string, Set<string>>();
  private readonly queue: StoreEvent[] = [];
  private dispatching = false;
  private readonly now: () => number;
  private readonly historyCapacity: number;
  private readonly onListenerError: (err: unknown, event: StoreEvent) => void;
  private readonly untrackedGeneration: ReadonlySet<string>;

  constructor(options: ObjectStoreOptions) {
    this.now = options.now;
    this.historyCapacity = options.historyCapacity ?? 10_000;
    this.onListenerError = options.onListenerError ?? (() => {});
    this.untrackedGeneration = options.untrackedGeneration ?? new Set();
  }

  /** The current global resourceVersion as a string (what a list returns). */
  get resourceVersion(): string {
    return String(this.revision);
  }

  /** The current global resourceVersion as a number. */
  get currentRevision(): number {
    return this.revision;
  }

  /** One object, or undefined. */
  get(resource: string, namespace: string, name: string): KubeObject | undefined {
    return this.buckets.get(resource)?.get(namespace)?.get(name);
  }

  /** Looks an object up by uid. */
  getByUid(uid: string): { resource: string; object: KubeObject } | undefined {
    const ref = this.byUid.get(uid);
    if (!ref) return undefined;
    const object = this.get(ref.resource, ref.namespace, ref.name);
    return object ? { resource: ref.resource, object } : undefined;
  }

  /**
   * Objects of a resource, in key order (namespace, then name), optionally in one namespace and
   * filtered. Costs O(objects in the namespace) plus the sort.
   */
  list(resource: string, namespace?: string, filter?: (obj: KubeObject) => boolean): KubeObject[] {
    const bucket = this.buckets.get(resource);
    if (!bucket) return [];
    const namespaces = namespace === undefined ? [...bucket.keys()].sort() : [namespace];
    const out: KubeObject[] = [];
    for (const ns of namespaces) {
      const objects = bucket.get(ns);
      if (!objects) continue;
      const names = [...objects.keys()].sort();
      for (const name of names) {
        const obj = objects.get(name) as KubeObject;
        if (!filter || filter(obj)) out.push(obj);
      }
    }
    return out;
  }

  /** Number of objects of a resource (all namespaces). */
  count(resource: string): number {
    let n = 0;
    for (const objects of this.buckets.get(resource)?.values() ?? []) n += objects.size;
    return n;
  }

  /**
   * Stores a new object: assigns uid, resourceVersion, creationTimestamp and generation 1.
   * Throws 409 AlreadyExists when the name is taken.
   */
  create(resource: string, input: KubeObject): KubeObject {
    const namespace = input.metadata.namespace ?? '';
    const name = input.metadata.name ?? '';
    if (this.get(resource, namespace, name)) throw alreadyExists({ ...describe(resource), name });
    const obj = cloneObject(input);
    this.revision += 1;
    obj.metadata.uid = randomUUID();
    obj.metadata.resourceVersion = String(this.revision);
    obj.metadata.creationTimestamp = toRfc3339(this.now());
    if (this.untrackedGeneration.has(resource)) delete obj.metadata.generation;
    else obj.metadata.generation = 1;
    delete obj.metadata.deletionTimestamp;
    this.put(resource, obj);
    this.indexOwners(resource, obj);
    this.emit('ADDED', resource, obj, undefined);
    return obj;
  }

  /**
   * Replaces an existing object. uid and creationTimestamp are kept, generation is bumped when
   * the spec part changed, resourceVersion is bumped. A stale metadata.resourceVersion is a 409
   * Conflict. When deletionTimestamp is set and the last finalizer is gone, the object is removed.
   */
  update(resource: string, input: KubeObject, options: UpdateOptions = {}): KubeObject {
    const namespace = input.metadata.namespace ?? '';
    const name = input.metadata.name ?? '';
    const old = this.get(resource, namespace, name);
    if (!old) throw notFound({ ...describe(resource), name });
    const expected = input.metadata.resourceVersion;
    if ((options.checkResourceVersion ?? true) && expected && expected !== old.metadata.resourceVersion) {
      throw conflict({ ...describe(resource), name });
    }
    const obj = cloneObject(input);
    obj.metadata.uid = old.metadata.uid;
    obj.metadata.creationTimestamp = old.metadata.creationTimestamp;
    if (old.metadata.generation === undefined && this.untrackedGeneration.has(resource)) delete obj.metadata.generation;
    else obj.metadata.generation = (old.metadata.generation ?? 1) + (options.keepGeneration || isDeepStrictEqual(specPart(old), specPart(obj)) ? 0 : 1);
    if (old.metadata.deletionTimestamp) {
      obj.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
      obj.metadata.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
    } else {
      delete obj.metadata.deletionTimestamp;
      delete obj.metadata.deletionGracePeriodSeconds;
    }
    if (isDeepStrictEqual(stripVersion(old), stripVersion(obj))) return old; // no-op writes do not bump rv
    this.revision += 1;
    obj.metadata.resourceVersion = String(this.revision);
    // The last finalizer gone from an object marked with no grace period left: it goes now.
    if (obj.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).length === 0 && (old.metadata.deletionGracePeriodSeconds ?? 0) === 0) {
      this.put(resource, obj);
      return this.remove(resource, obj, true);
    }
    this.put(resource, obj);
    this.unindexOwners(resource, old);
    this.indexOwners(resource, obj);
    this.emit('MODIFIED', resource, obj, old);
    return obj;
  }

  /**
   * Read-modify-write without conflicts, for in-process writers (kubelet, controllers).
   * `change` gets a mutable copy and may modify it in place or return a replacement.
   */
  mutate(
    resource: string,
    namespace: string,
    name: string,
    change: (draft: KubeObject) => KubeObject | void,
    options: Pick<UpdateOptions, 'keepGeneration'> = {},
  ): KubeObject {
    const old = this.get(resource, namespace, name);
    if (!old) throw notFound({ ...describe(resource), name });
    const draft = cloneObject(old);
    const next = change(draft) ?? draft;
    next.metadata.resourceVersion = old.metadata.resourceVersion;
    return this.update(resource, next, options);
  }

  /**
   * Deletes an object. With finalizers it is only marked (deletionTimestamp) until they are
   * removed. Dependents (ownerReferences to its uid) are deleted unless propagation is Orphan.
   */
  delete(resource: string, namespace: string, name: string, options: DeleteOptions = {}): DeleteResult {
    const old = this.get(resource, namespace, name);
    if (!old) throw notFound({ ...describe(resource), name });
    const pre = options.preconditions;
    if (pre?.uid && pre.uid !== old.metadata.uid) {
      throw conflict({ ...describe(resource), name }, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid ?? ''}`);
    }
    if (pre?.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion) {
      throw conflict(
        { ...describe(resource), name },
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion ?? ''}`,
      );
    }
    if ((old.metadata.finalizers ?? []).length > 0) {
      if (old.metadata.deletionTimestamp) return { object: old, finalizing: true };
      const marked = cloneObject(old);
      this.revision += 1;
      marked.metadata.resourceVersion = String(this.revision);
      marked.metadata.deletionTimestamp = toRfc3339(this.now());
      marked.metadata.deletionGracePeriodSeconds = 0;
      bumpGeneration(marked);
      this.put(resource, marked);
      this.emit('MODIFIED', resource, marked, old);
      return { object: marked, finalizing: true };
    }
    this.revision += 1;
    const last = cloneObject(old);
    last.metadata.resourceVersion = String(this.revision);
    return { object: this.remove(resource, last, options.propagationPolicy !== 'Orphan'), finalizing: false };
  }

  /**
   * Marks an object as being deleted gracefully (a pod whose containers are stopping): sets
   * deletionTimestamp and deletionGracePeriodSeconds; the object stays until `delete` is called
   * again (by the kubelet) and updates do not remove it.
   */
  markForDeletion(resource: string, namespace: string, name: string, deletionTimestamp: string, gracePeriodSeconds: number): KubeObject {
    const old = this.get(resource, namespace, name);
    if (!old) throw notFound({ ...describe(resource), name });
    const marked = cloneObject(old);
    this.revision += 1;
    marked.metadata.resourceVersion = String(this.revision);
    if (!old.metadata.deletionTimestamp) bumpGeneration(marked);
    marked.metadata.deletionTimestamp = deletionTimestamp;
    marked.metadata.deletionGracePeriodSeconds = gracePeriodSeconds;
    this.put(resource, marked);
    this.emit('MODIFIED', resource, marked, old);
    return marked;
  }

  /** Deletes every namespaced object in a namespace (used when a namespace is deleted). */
  deleteNamespaceContents(namespace: string): void {
    for (const [resource, bucket] of this.buckets) {
      const objects = bucket.get(namespace);
      if (!objects) continue;
      for (const name of [...objects.keys()]) {
        if (this.get(resource, namespace, name)) this.delete(resource, namespace, name);
      }
    }
  }

  /**
   * Subscribes to committed changes of one resource (`pods`) or of all (`*`). Listeners are
   * called in resourceVersion order, after the write returned to its caller's synchronous code
   * path has committed; writes made by a listener are queued behind the current event. A listener
   * that throws does not stop the others (the error goes to `onListenerError`).
   */
  subscribe(resource: string, listener: StoreListener): () => void {
    let set = this.listeners.get(resource);
    if (!set) {
      set = new Set();
      this.listeners.set(resource, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** The event history of a resource (created on first use). */
  history(resource: string): EventHistory {
    let history = this.histories.get(resource);
    if (!history) {
      // No event of this resource was ever dropped, so nothing before now is expired.
      history = new EventHistory(this.historyCapacity);
      this.histories.set(resource, history);
    }
    return history;
  }

  /** Drops all watch history: any watch resuming from an older resourceVersion gets 410. */
  compact(): void {
    for (const history of this.histories.values()) history.compact(this.revision);
  }

  private put(resource: string, obj: KubeObject): void {
    deepFreeze(obj);
    let bucket = this.buckets.get(resource);
    if (!bucket) {
      bucket = new Map();
      this.buckets.set(resource, bucket);
    }
    const namespace = obj.metadata.namespace ?? '';
    let objects = bucket.get(namespace);
    if (!objects) {
      objects = new Map();
      bucket.set(namespace, objects);
    }
    objects.set(obj.metadata.name ?? '', obj);
    if (obj.metadata.uid) this.byUid.set(obj.metadata.uid, { resource, namespace, name: obj.metadata.name ?? '' });
  }

  private remove(resource: string, last: KubeObject, cascade: boolean): KubeObject {
    deepFreeze(last);
    const namespace = last.metadata.namespace ?? '';
    const objects = this.buckets.get(resource)?.get(namespace);
    objects?.delete(last.metadata.name ?? '');
    if (objects?.size === 0) this.buckets.get(resource)?.delete(namespace);
    const uid = last.metadata.uid ?? '';
    this.byUid.delete(uid);
    this.unindexOwners(resource, last);
    this.emit('DELETED', resource, last, undefined);
    const children = this.dependents.get(uid);
    this.dependents.delete(uid);
    if (cascade && children) {
      for (const childUid of children) {
        const ref = this.byUid.get(childUid);
        if (ref && this.get(ref.resource, ref.namespace, ref.name)) this.delete(ref.resource, ref.namespace, ref.name);
      }
    }
    return last;
  }

  private indexOwners(_resource: string, obj: KubeObject): void {
    for (const owner of obj.metadata.ownerReferences ?? []) {
      let set = this.dependents.get(owner.uid);
      if (!set) {
        set = new Set();
        this.dependents.set(owner.uid, set);
      }
      set.add(obj.metadata.uid ?? '');
    }
  }

  private unindexOwners(_resource: string, obj: KubeObject): void {
    for (const owner of obj.metadata.ownerReferences ?? []) this.dependents.get(owner.uid)?.delete(obj.metadata.uid ?? '');
  }

  private emit(type: ChangeType, resource: string, object: KubeObject, oldObject: KubeObject | undefined): void {
    const event: StoreEvent = { type, resource, object, resourceVersion: Number(object.metadata.resourceVersion) };
    if (oldObject) event.oldObject = oldObject;
    this.history(resource).append(event);
    this.queue.push(event);
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      while (this.queue.length > 0) {
        const next = this.queue.shift() as StoreEvent;
        for (const key of [next.resource, '*']) {
          for (const listener of [...(this.listeners.get(key) ?? [])]) {
            try {
              listener(next);
            } catch (err) {
              this.onListenerError(err, next);
            }
          }
        }
      }
    } finally {
      this.dispatching = false;
    }
  }
}

function stripVersion(obj: KubeObject): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: '' } };
}

/** RFC 3339 with second precision, as Kubernetes writes timestamps: 2026-11-29T12:00:00Z. */
export function toRfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
