/**
 * When the recommender writes checkpoints and collects orphans: each VPA x container checkpoint on
 * its own interval (since its last successful write), and the orphan sweep on a slower one. A
 * failed write keeps the checkpoint due, so it is tried again next cycle. Pure: the time is an
 * argument.
 *
 * Worked numbers with the defaults (interval 10 min, GC 1 h): a checkpoint written at 10:00:00 is
 * due again from 10:10:00 (at 10:09:59 it is not); a cycle every minute therefore writes each
 * checkpoint on every tenth cycle, so 1,000 VPAs x 2 containers cost 2,000 writes per 10 min
 * (3.3/s) instead of 2,000 per minute (33/s) when written every cycle. The sweep lists every
 * checkpoint once an hour. Why these defaults: decision 0137.
 */

export const CHECKPOINT_DEFAULTS = {
  intervalMs: 10 * 60_000,
  gcIntervalMs: 60 * 60_000,
} as const;

/** True when something last done at `lastAt` (undefined: never) is due again at `now`. */
export function isDue(lastAt: number | undefined, now: number, intervalMs: number): boolean {
  return lastAt === undefined || now - lastAt >= intervalMs;
}

/** The last successful write of each checkpoint (by id `namespace/vpa/container`) and of the orphan sweep. */
export class CheckpointSchedule {
  private readonly written = new Map<string, number>();
  private lastGc: number | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly gcIntervalMs: number,
  ) {}

  /** Whether the checkpoint `id` should be written at `now`. */
  due(id: string, now: number): boolean {
    return isDue(this.written.get(id), now, this.intervalMs);
  }

  /** Records a successful write (or a restored checkpoint's `lastUpdateTime`). */
  wrote(id: string, at: number): void {
    this.written.set(id, at);
  }

  /** Forgets checkpoints not in `keep` (their VPA or container is gone). */
  retain(keep: ReadonlySet<string>): void {
    for (const id of this.written.keys()) if (!keep.has(id)) this.written.delete(id);
  }

  /** Whether the orphan sweep should run at `now` (the first call after creation: yes). */
  gcDue(now: number): boolean {
    return isDue(this.lastGc, now, this.gcIntervalMs);
  }

  /** Records a completed orphan sweep. */
  sweptAt(at: number): void {
    this.lastGc = at;
  }
}
