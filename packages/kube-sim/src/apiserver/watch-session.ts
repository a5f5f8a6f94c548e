/**
 * One watch: the resourceVersion semantics of a real API server's watch cache.
 * - no resourceVersion or "0": synthetic ADDED events for every matching object, then changes;
 * - a resourceVersion N: every change after N from the bounded history, then live changes; if N is
 *   older than the history window, a single ERROR event with a 410 Expired Status and the end;
 * - `sendInitialEvents=true`: the initial ADDED events followed by a BOOKMARK annotated
 *   `k8s.io/initial-events-end: "true"`;
 * - `allowWatchBookmarks=true`: periodic BOOKMARK events carrying only the current resourceVersion;
 * - label/field selectors, with objects that move into or out of the selection reported as ADDED
 *   and DELETED, as the watch cache does;
 * - `timeoutSeconds`: the watch ends after that long.
 */
import { expired } from './api-error.ts';
import { matchesFields, type FieldRequirement } from './field-selector.ts';
import { matchesLabels, type LabelMatcher } from './label-selector.ts';
import type { ObjectStore } from './object-store.ts';
import { present } from './object-view.ts';
import { apiVersionOf, storeKeyOf, type ResourceType } from './resource-type.ts';
import type { StoreEvent } from './store-event.ts';
import type { KubeObject } from './types.ts';

/** A watch event as sent on the wire. */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: unknown;
}

/** Parameters of a watch. */
export interface WatchOptions {
  type: ResourceType;
  version: string;
  namespace?: string;
  labels: LabelMatcher;
  fields: FieldRequirement[];
  resourceVersion?: string;
  allowWatchBookmarks: boolean;
  sendInitialEvents: boolean;
  /** How often BOOKMARK events are sent when allowed (ms). */
  bookmarkIntervalMs: number;
  timeoutSeconds?: number;
}

export class WatchSession {
  private unsubscribe: (() => void) | undefined;
  private bookmarkTimer: NodeJS.Timeout | undefined;
  private timeoutTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly store: ObjectStore,
    private readonly options: WatchOptions,
    private readonly send: (event: WatchEvent) => void,
    private readonly onEnd: () => void,
  ) {}

  /** Starts the watch: replays or lists, then follows live changes. */
  start(): void {
    const o = this.options;
    const key = storeKeyOf(o.type);
    const rv = o.resourceVersion;
    const fromStart = rv === undefined || rv === '' || rv === '0' || o.sendInitialEvents;
    if (!fromStart) {
      const revision = Number(rv);
      if (!Number.isInteger(revision) || revision < 0) {
        this.send({ type: 'ERROR', object: expired(`invalid resource version: ${rv}`).toStatus() });
        this.stop();
        return;
      }
      const history = this.store.history(key);
      if (history.isExpired(revision)) {
        this.send({ type: 'ERROR', object: expired(`too old resource version: ${revision} (${history.compactedRevision + 1})`).toStatus() });
        this.stop();
        return;
      }
      for (const event of history.since(revision)) this.deliver(event);
    } else {
      for (const obj of this.store.list(key, o.type.namespaced ? o.namespace : undefined)) {
        const view = this.view(obj);
        if (this.matches(view)) this.send({ type: 'ADDED', object: view });
      }
      if (o.sendInitialEvents && o.allowWatchBookmarks) this.bookmark(true);
    }
    this.unsubscribe = this.store.subscribe(key, (event) => this.deliver(event));
    if (o.allowWatchBookmarks) {
      this.bookmarkTimer = setInterval(() => this.bookmark(false), o.bookmarkIntervalMs);
      this.bookmarkTimer.unref();
    }
    if (o.timeoutSeconds !== undefined && o.timeoutSeconds > 0) {
      this.timeoutTimer = setTimeout(() => this.stop(), o.timeoutSeconds * 1000);
      this.timeoutTimer.unref();
    }
  }

  /** Ends the watch (idempotent); calls `onEnd` once. */
  stop(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe?.();
    if (this.bookmarkTimer) clearInterval(this.bookmarkTimer);
    if (this.timeoutTimer) clearTimeout(this.timeoutTimer);
    this.onEnd();
  }

  /** True once stopped. */
  get isClosed(): boolean {
    return this.closed;
  }

  private matches(obj: KubeObject): boolean {
    const o = this.options;
    if (o.type.namespaced && o.namespace !== undefined && obj.metadata.namespace !== o.namespace) return false;
    return matchesLabels(o.labels, obj.metadata.labels) && matchesFields(o.fields, obj);
  }

  private view(obj: KubeObject): KubeObject {
    return present(this.options.type, this.options.version, obj);
  }

  private deliver(event: StoreEvent): void {
    if (this.closed) return;
    const view = this.view(event.object);
    const now = this.matches(view);
    const before = event.oldObject ? this.matches(this.view(event.oldObject)) : false;
    if (event.type === 'MODIFIED') {
      if (now && before) this.send({ type: 'MODIFIED', object: view });
      else if (now) this.send({ type: 'ADDED', object: view });
      else if (before) this.send({ type: 'DELETED', object: view });
      return;
    }
    if (now) this.send({ type: event.type, object: view });
  }

  private bookmark(initialEventsEnd: boolean): void {
    if (this.closed) return;
    const metadata: Record<string, unknown> = { resourceVersion: this.store.resourceVersion };
    if (initialEventsEnd) metadata['annotations'] = { 'k8s.io/initial-events-end': 'true' };
    this.send({
      type: 'BOOKMARK',
      object: { kind: this.options.type.kind, apiVersion: apiVersionOf(this.options.type.group, this.options.version), metadata },
    });
  }
}
