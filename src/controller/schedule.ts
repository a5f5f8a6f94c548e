/**
 * The loop's schedule as a node-cron expression. `--interval` is turned into cron steps that
 * divide a minute, an hour or a day, so ticks land on round times on every replica alike:
 * 10s -> `*\/10 * * * * *`, 1m -> `0 * * * * *`, 5m -> `0 *\/5 * * * *`, 2h -> `0 0 *\/2 * * *`.
 * An interval that does not divide its unit (7m) cannot be written as one cron step and is
 * refused with a hint to use `--schedule`.
 */
import cron from 'node-cron';

/** A loop schedule: the cron expression and the longest time between two ticks. */
export interface LoopSchedule {
  cron: string;
  intervalMs: number;
  /** Set for `--interval`: ticks every so many ms at round times, without a cron matcher (interval-ticker.ts). */
  everyMs?: number;
}

/** The cron schedule for a fixed interval, or why there is none. */
export function scheduleFor(intervalMs: number): LoopSchedule | { error: string } {
  const s = intervalMs / 1000;
  if (Number.isInteger(s) && s >= 1 && s < 60 && 60 % s === 0) return { cron: s === 1 ? '* * * * * *' : `*/${s} * * * * *`, intervalMs, everyMs: intervalMs };
  const m = intervalMs / 60_000;
  if (Number.isInteger(m) && m >= 1 && m < 60 && 60 % m === 0) return { cron: m === 1 ? '0 * * * * *' : `0 */${m} * * * *`, intervalMs, everyMs: intervalMs };
  const h = intervalMs / 3_600_000;
  if (Number.isInteger(h) && h >= 1 && h <= 24 && 24 % h === 0)
    return { cron: h === 24 ? '0 0 0 * * *' : h === 1 ? '0 0 * * * *' : `0 0 */${h} * * *`, intervalMs, everyMs: intervalMs };
  return { error: `an interval of ${intervalMs} ms does not divide a minute, an hour or a day; use e.g. 30s, 1m, 5m, 1h, or --schedule` };
}

/**
 * The schedule of a cron expression: its interval is the longest gap between its next `sample`
 * ticks (so `0 9,17 * * *` counts as 16 h, the gap health checks must tolerate). node-cron counts
 * from the wall clock; the gaps do not depend on when they are counted for such expressions.
 */
export function scheduleOfCron(expression: string, sample = 32): LoopSchedule {
  const task = cron.createTask(expression, () => undefined);
  try {
    const runs = task.getNextRuns(sample).map((d) => d.getTime());
    let longest = 0;
    for (let i = 1; i < runs.length; i++) longest = Math.max(longest, runs[i]! - runs[i - 1]!);
    return { cron: expression, intervalMs: longest };
  } finally {
    void task.destroy();
  }
}
