/**
 * An in-memory view of one resource kept current by list + watch (client-node's informer), that
 * survives what real API servers do: watches that end (re-watched from the last resourceVersion),
 * `410 Gone` (re-listed; objects deleted meanwhile are reported deleted), and failing lists or
 * watches (client-node's informer stops on those; this cache restarts it after a jittered
 * backoff that honours Retry-After, and keeps serving the last known objects meanwhile).
 *
 * Objects in the cache are shared: never mutate them (clone before changing, e.g. for a patch).
 */
import { makeInformer, type Informer, type KubeConfig, type KubernetesObject, type ObjectCache } from '@kubernetes/client-node';
import { moduleLogger, type Logger } from '../observability/logger.ts';
import { realSleep, type Sleep } from './clock.ts';
import { classifyApiError } from './errors.ts';
import { backoffDelay } from './retry.ts';
import { listObjects, resourcePath } from './list-objects.ts';

/** A resource by group, version and plural (`{ group: '', version: 'v1', plural: 'pods' }`). */
export interface ResourceRef {
  group: string;
  version: string;
  plural: string;
}

export interface WatchCacheOptions {
  kubeConfig: KubeConfig;
  resource: ResourceRef;
  /** One namespace; all when absent. */
  namespace?: string;
  labelSelector?: string;
  logger: Logger;
  sleep?: Sleep;
  random?: () => number;
  /** First and longest restart delay (default 500 ms and 30 s). */
  restartBaseDelayMs?: number;
  restartMaxDelayMs?: number;
}

export type WatchEventType = 'add' | 'update' | 'delete';
export type WatchListener<T> = (type: WatchEventType, object: T) => void;

export class WatchCache<T extends KubernetesObject> {
  private readonly informer: Informer<T> & ObjectCache<T>;
  private readonly listeners: WatchListener<T>[] = [];
  private readonly log: Logger;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly stopSignal = new AbortController();
  private stopped = false;
  private failures = 0;
  private restarting = false;
  private syncedOnce = false;
  private markSynced!: () => void;
  private readonly syncedPromise = new Promise<void>((resolve) => (this.markSynced = resolve));
  /** Restarts after errors since start (for tests and metrics). */
  restarts = 0;
  /** Full lists since start: the first, one per 410 Gone, one per restart. */
  lists = 0;

  constructor(private readonly o: WatchCacheOptions) {
    this.log = moduleLogger(o.logger, 'watch', { resource: o.resource.plural, namespace: o.namespace ?? '*' });
    this.sleep = o.sleep ?? realSleep;
    this.random = o.random ?? Math.random;
    const path = resourcePath(o.resource, o.namespace);
    const list = () => {
      this.lists++;
      return listObjects<T>(o.kubeConfig, path, { labelSelector: o.labelSelector });
    };
    this.informer = makeInformer<T>(o.kubeConfig, path, list as never, o.labelSelector);
    this.informer.on('add', (obj) => this.emit('add', obj));
    this.informer.on('update', (obj) => this.emit('update', obj));
    this.informer.on('delete', (obj) => this.emit('delete', obj));
    this.informer.on('error', (err) => void this.onError(err));
  }

  /** Called for every change, after the cache was updated. Listeners must not throw. */
  on(listener: WatchListener<T>): void {
    this.listeners.push(listener);
  }

  /** Starts listing and watching; resolves once started (see {@link synced} for the first full list). */
  async start(): Promise<void> {
    await this.startInformer();
  }

  /** Resolves when the first list has been loaded into the cache. */
  synced(): Promise<void> {
    return this.syncedPromise;
  }

  /** True once the first list has been loaded (a cache may serve before: the admission webhook does). */
  get isSynced(): boolean {
    return this.syncedOnce;
  }

  /** The resource this cache holds. */
  get resource(): ResourceRef {
    return this.o.resource;
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.informer.get(name, namespace);
  }

  /** Every object, or those of one namespace. */
  list(namespace?: string): readonly T[] {
    return this.informer.list(namespace);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopSignal.abort();
    await this.informer.stop();
  }

  private emit(type: WatchEventType, obj: T): void {
    for (const l of this.listeners) {
      try {
        l(type, obj);
      } catch (err) {
        this.log.error({ err }, 'a watch listener threw');
      }
    }
  }

  private async startInformer(): Promise<void> {
    const failuresBefore = this.failures;
    await this.informer.start();
    if (!this.stopped && this.failures === failuresBefore) {
      // No error while listing and opening the watch: the list is in the cache.
      this.failures = 0;
      if (!this.syncedOnce) {
        this.syncedOnce = true;
        this.markSynced();
      }
    }
  }

  private async onError(err: unknown): Promise<void> {
    if (this.stopped) return; // stop() aborts the watch request; that is not a failure
    this.failures++;
    if (this.restarting) return;
    this.restarting = true;
    try {
      const c = classifyApiError(err);
      const delayMs = backoffDelay(this.failures, c, this.random(), {
        baseDelayMs: this.o.restartBaseDelayMs ?? 500,
        maxDelayMs: this.o.restartMaxDelayMs ?? 30_000,
      });
      const level = c.kind === 'forbidden' || c.kind === 'unauthorized' ? 'error' : 'warn';
      this.log[level]({ err, kind: c.kind, failures: this.failures, delayMs }, 'list/watch failed; restarting after a delay');
      await this.sleep(delayMs, this.stopSignal.signal);
    } catch {
      return; // stopped while waiting
    } finally {
      this.restarting = false;
    }
    if (this.stopped) return;
    this.restarts++;
    await this.startInformer();
  }
}
