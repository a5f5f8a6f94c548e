/**
 * Warnings whose cause lasts for many cycles (a scrape interval that cannot be read, a malformed
 * VPA, Prometheus unreachable): said once per cause at their level, then as debug lines, and said
 * again at most once per `everyMs` (default 10 minutes) with `repeats`, how many times the cause
 * was seen since it was last said. A cause that goes away and comes back is said again at once.
 * Times are the caller's (the cycle's `now`), so no wall clock is read.
 *
 * Worked example, a 1-minute loop and a cause that lasts an hour: one warning at minute 0, debug
 * lines at 1-9, a warning with `repeats: 10` at minute 10, ... 7 warnings instead of 60.
 */
import type { Logger } from './logger.ts';

/** How often a lasting cause is said again. */
export const REPEAT_EVERY_MS = 10 * 60_000;

export class RepeatedWarnings {
  private readonly causes = new Map<string, { saidAt: number; repeats: number }>();

  constructor(
    private readonly logger: Logger,
    private readonly everyMs = REPEAT_EVERY_MS,
  ) {}

  /** Logs `message` for `cause` at `now`: at `level` the first time and once per period, else at debug. */
  say(cause: string, now: number, fields: Record<string, unknown>, message: string, level: 'warn' | 'error' = 'warn'): void {
    const seen = this.causes.get(cause);
    if (seen === undefined) {
      this.causes.set(cause, { saidAt: now, repeats: 0 });
      this.logger[level](fields, message);
      return;
    }
    seen.repeats++;
    if (now - seen.saidAt < this.everyMs) {
      this.logger.debug({ ...fields, repeated: true }, message);
      return;
    }
    this.logger[level]({ ...fields, repeats: seen.repeats, sinceMs: now - seen.saidAt }, `${message} (still, ${seen.repeats} times since it was last said)`);
    seen.saidAt = now;
    seen.repeats = 0;
  }

  /** The cause went away: true when it had been said (the caller may say that it is resolved). */
  resolved(cause: string): boolean {
    return this.causes.delete(cause);
  }

  /** Forgets the causes for which `keep` is false (e.g. of VPAs that are gone or valid again). */
  retain(keep: (cause: string) => boolean): void {
    for (const cause of [...this.causes.keys()]) if (!keep(cause)) this.causes.delete(cause);
  }

  /** The causes currently said. */
  get size(): number {
    return this.causes.size;
  }
}
