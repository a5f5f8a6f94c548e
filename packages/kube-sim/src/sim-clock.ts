/**
 * Simulated time. The clock starts at a given instant and only moves when advanced: by a driver
 * that turns real time into simulated time at `speed` (speed 60: one real second is one simulated
 * minute), or by tests stepping it by hand. Everything in the cluster reads time from here.
 */
export class SimClock {
  private current: number;
  readonly start: number;

  constructor(start: number) {
    this.start = start;
    this.current = start;
  }

  /** Simulated now, in ms since the epoch. */
  now(): number {
    return this.current;
  }

  /** Moves simulated time forward by `ms` (never backwards). */
  advance(ms: number): number {
    if (ms > 0) this.current += ms;
    return this.current;
  }
}
