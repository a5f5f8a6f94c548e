/**
 * Records simulated components' events as core/v1 Events (what `kubectl describe` and
 * `kubectl get events` show). A repeat of the same event for the same object within the series
 * bumps `count` and `lastTimestamp` instead of adding a new object, as the real recorder does.
 */
import { randomBytes } from 'node:crypto';
import type { ClusterStore } from '../cluster-host.ts';
import type { SimEvent } from '../kubelet/kubelet-event.ts';
import { rfc3339 } from '../kubelet/conditions.ts';
import type { Logger } from '../logger.ts';

/** Series remembered for aggregation; the oldest is forgotten beyond this (it then starts a new Event). */
const MAX_SERIES = 10_000;

export class EventRecorder {
  private readonly series = new Map<string, { namespace: string; name: string }>();

  constructor(
    private readonly store: ClusterStore,
    private readonly now: () => number,
    private readonly logger: Logger,
  ) {}

  record(event: SimEvent): void {
    const ns = event.involvedObject.namespace ?? 'default';
    const key = [
      ns,
      event.involvedObject.uid ?? event.involvedObject.name,
      event.involvedObject.fieldPath ?? '',
      event.reason,
      event.message,
      event.component,
    ].join('\u0000');
    const at = rfc3339(this.now());
    try {
      const existing = this.series.get(key);
      if (existing && this.store.get('events', existing.namespace, existing.name)) {
        this.store.mutate('events', existing.namespace, existing.name, (draft) => {
          const d = draft as Record<string, unknown>;
          d.count = Number(d.count ?? 1) + 1;
          d.lastTimestamp = at;
        });
        return;
      }
      const name = `${event.involvedObject.name}.${randomBytes(8).toString('hex')}`;
      this.store.create('events', {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: ns },
        involvedObject: event.involvedObject,
        reason: event.reason,
        message: event.message,
        type: event.type,
        source: { component: event.component, ...(event.host ? { host: event.host } : {}) },
        reportingComponent: event.component,
        reportingInstance: event.host ?? '',
        firstTimestamp: at,
        lastTimestamp: at,
        count: 1,
      });
      this.series.set(key, { namespace: ns, name });
      if (this.series.size > MAX_SERIES) this.series.delete(this.series.keys().next().value!);
    } catch (err) {
      this.logger.warn({ err, reason: event.reason }, 'could not record event');
    }
  }
}
