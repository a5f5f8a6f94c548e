/**
 * When the recommender writes checkpoints and collects orphans: each VPA x container checkpoint on
 * its own interval (since its last successful write), and the orphan sweep on a slower one. A
 * failed write keeps the checkpoint due, so it is tried again next cycle. Pure: the time is an
 * argument.
 *
 * After a restart (decision 0287): a restored checkpoint is written as soon as it has samples it did
 * not have when it was read (the new leader's state goes on from it, as upstream's e2e spec "is
 * loaded correctly on recommender restart" checks within 5 min), then on the interval again; the
 * flush at shutdown skips checkpoints with no sample since their last write (nothing new to save).
 * Worked example: restored at 10:00 with 120 samples, lastUpdateTime 09:58; at 10:01 it has 121:
 * written at 10:01 (not at 10:08), next at 10:11.
 *
 * Worked numbers with the defaults (interval 10 min, GC 1 h): a checkpoint written at 10:00:00 is
 * due again from 10:10:00 (at 10:09:59 it is not); a cycle every minute therefore writes each
 * checkpoint on every tenth cycle, so 1,000 VPAs x 2 containers cost 2,000 writes per 10 min
 * (3.3/s) instead of 2,000 per minute (33/s) when written every cycle. The sweep lists every
 * checkpoint once an hour. Why these defaults: decision 0137.
 */

export const CHECKPOINT_DEFAULTS = {
  intervalMs: 10 * 60_000,
  // Upstream's --checkpoints-gc-interval: its e2e expects an orphan gone within 15 min (0287).
  gcIntervalMs: 10 * 60_000,
} as const;

/** True when something last done at `lastAt` (undefined: never) is due again at `now`. */
export function isDue(lastAt: number | undefined, now: number, intervalMs: number): boolean {
  return lastAt === undefined || now - lastAt >= intervalMs;
}

/** A checkpoint's last write (or the restored checkpoint's `lastUpdateTime`) and its sample count then. */
interface LastWrite {
  readonly at: number;
  readonly samples: number;
  /** Read at start-up and not written since. */
  readonly restored: boolean;
}

/** The last successful write of each checkpoint (by id `namespace/vpa/container`) and of the orphan sweep. */
export class CheckpointSchedule {
  private readonly written = new Map<string, LastWrite>();
  private lastGc: number | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly gcIntervalMs: number,
  ) {}

  /** Whether the checkpoint `id`, now holding `samples` samples, should be written at `now`. */
  due(id: string, now: number, samples: number): boolean {
    const last = this.written.get(id);
    if (last?.restored && samples > last.samples) return true;
    return isDue(last?.at, now, this.intervalMs);
  }

  /** Whether the checkpoint has samples it did not have at its last write (never written: yes). */
  changed(id: string, samples: number): boolean {
    const last = this.written.get(id);
    return last === undefined || last.samples !== samples;
  }

  /** Records a successful write at `at` holding `samples` samples. */
  wrote(id: string, at: number, samples: number): void {
    this.written.set(id, { at, samples, restored: false });
  }

  /** Records a checkpoint read at start-up: its `lastUpdateTime` and sample count. */
  restored(id: string, lastUpdate: number, samples: number): void {
    this.written.set(id, { at: lastUpdate, samples, restored: true });
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
