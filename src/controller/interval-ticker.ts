/**
 * Ticks every `intervalMs` at round times: the multiples of the interval since the epoch (10s ->
 * :00, :10, :20 ...; 5m -> :00, :05 ...), so every replica ticks at the same instants, as the cron
 * steps of `--interval` did (in UTC). Plain timers, no cron matcher: node-cron matches each tick
 * in a time zone through `Intl.DateTimeFormat`, which pages in ICU's time-zone data and costs the
 * idle process about 8 MiB of resident memory (decision 0266). `--schedule` still uses node-cron.
 */
import type { Ticker } from './loop-scheduler.ts';

/** The first multiple of `intervalMs` after `now` (both ms since the epoch). */
export function nextTickAt(now: number, intervalMs: number): number {
  return (Math.floor(now / intervalMs) + 1) * intervalMs;
}

/** The timers an {@link intervalTicker} uses (injected in tests). */
export interface TickerTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: TickerTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A {@link Ticker} on the round multiples of `intervalMs`; a timer that fires early never ticks twice for one time. */
export function intervalTicker(intervalMs: number, timers: TickerTimers = realTimers): Ticker {
  let handle: unknown;
  let last = -Infinity;
  return {
    start(onTick) {
      const arm = () => {
        const at = nextTickAt(Math.max(timers.now(), last), intervalMs);
        handle = timers.setTimeout(
          () => {
            last = at;
            arm();
            onTick();
          },
          Math.max(0, at - timers.now()),
        );
      };
      arm();
    },
    stop() {
      if (handle !== undefined) timers.clearTimeout(handle);
      handle = undefined;
    },
  };
}
