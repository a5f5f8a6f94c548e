/**
 * A bounded, ordered history of change events for one resource, used to resume watches from a
 * resourceVersion. Events older than the window are compacted away; a watch that asks to resume
 * from before the window gets `410 Gone` (reason Expired), exactly like a real API server whose
 * watch cache has moved on.
 *
 * Worked example: capacity 3, events at rv 4, 7, 9, 12 -> rv 4 is dropped, `compactedRevision`
 * is 4, a watch from rv 3 is expired, a watch from rv 4 replays 7, 9, 12, from rv 9 replays 12.
 */
import type { StoreEvent } from './store-event.ts';

export class EventHistory {
  private events: StoreEvent[] = [];
  private start = 0;
  /** The highest resourceVersion no longer in the window (0 = nothing dropped yet). */
  compactedRevision = 0;

  constructor(private readonly capacity: number) {}

  /** Appends an event (events arrive in increasing resourceVersion order). */
  append(event: StoreEvent): void {
    this.events.push(event);
    if (this.events.length - this.start > this.capacity) {
      const dropped = this.events[this.start];
      if (dropped) this.compactedRevision = dropped.resourceVersion;
      this.start += 1;
      if (this.start > this.capacity) {
        this.events = this.events.slice(this.start);
        this.start = 0;
      }
    }
  }

  /** Drops the whole window, as if etcd had been compacted up to `revision`. */
  compact(revision: number): void {
    this.events = [];
    this.start = 0;
    this.compactedRevision = Math.max(this.compactedRevision, revision);
  }

  /** True when a watch resuming after `revision` can no longer be served. */
  isExpired(revision: number): boolean {
    return revision < this.compactedRevision;
  }

  /** Events with a resourceVersion greater than `revision`, oldest first (binary search). */
  since(revision: number): StoreEvent[] {
    let lo = this.start;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.events[mid] as StoreEvent).resourceVersion <= revision) lo = mid + 1;
      else hi = mid;
    }
    return this.events.slice(lo);
  }
}
