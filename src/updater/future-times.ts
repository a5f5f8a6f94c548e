/**
 * Times on objects that lie ahead of this replica's clock — written by a replica or an API
 * server whose clock runs ahead ("changed -213 min ago"). Left as they are, they freeze every
 * rule that waits for time to pass since them (the cooldown, the resize timeouts) until the
 * clocks meet. Instead such a time counts as the moment this replica first saw it, so a wait ends
 * at most one wait later; the skew is reported once per subject (pod and time) while it lasts.
 * This memory is the one piece of updater state not read back from objects: after a restart a
 * skewed time counts from when the new process first sees it.
 */

/** For a time after `now`: when this replica first saw it (never after `now`). */
export type FutureTimeBound = (subject: string, reported: number) => number;

interface Seen {
  reported: number;
  firstSeen: number;
  used: boolean;
}

/** Remembers when each future time was first seen. */
export class FutureTimes {
  private readonly seen = new Map<string, Seen>();

  /** `onSkew` is called once per subject while its time stays ahead (e.g. to log it). */
  constructor(private readonly onSkew: (subject: string, aheadMs: number) => void) {}

  /** The bound for one loop at `now`. */
  at(now: number): FutureTimeBound {
    return (subject, reported) => {
      if (reported <= now) return reported;
      const before = this.seen.get(subject);
      if (before && before.reported === reported) {
        before.used = true;
        return Math.min(before.firstSeen, now);
      }
      if (!before) this.onSkew(subject, reported - now);
      this.seen.set(subject, { reported, firstSeen: now, used: true });
      return now;
    };
  }

  /** Forgets subjects not bounded since the last sweep (pods gone, clocks met). Call once a loop. */
  sweep(): void {
    for (const [subject, s] of this.seen) {
      if (s.used) s.used = false;
      else this.seen.delete(subject);
    }
  }
}
