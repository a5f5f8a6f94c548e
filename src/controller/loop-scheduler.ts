/**
 * Runs a component's cycle on a schedule, never two at once: a tick that comes while a cycle is
 * still running is skipped and counted (the slow cycle is not interrupted); a cycle that throws is
 * logged with its error, counted, and the next tick simply runs a new one. `stop()` stops the
 * ticks and awaits the running cycle; `stop({ abort: true })` also aborts the cycle's signal,
 * for when leadership is lost and writes must end now.
 *
 * Ticks come from a {@link Ticker}: plain timers for `--interval` (interval-ticker.ts) and node-cron
 * for `--schedule` ({@link cronTicker}) in production, a hand-driven
 * one in tests. `start({ firstCycleNow: true })` runs a cycle at once and starts the ticks only
 * when it has ended: a first cycle reads days of history and activates the component, which
 * takes longer than an interval, and every tick meanwhile would only be skipped (with a warning).
 */
import cron from 'node-cron';
import type { Logger } from '../observability/logger.ts';
import { systemClock, type Clock } from '../kube/clock.ts';

/** What a cycle gets. */
export interface CycleContext {
  /** The tick's time (ms since the epoch): the `now` of the cycle's pure decisions. */
  now: number;
  /** 1, 2, 3, ... per scheduler. */
  cycle: number;
  /** Aborted when the cycle must end early (leadership lost, forced stop). */
  signal: AbortSignal;
}

/** How a cycle ended. */
export interface CycleOutcome {
  ok: boolean;
  startedAt: number;
  durationMs: number;
  error?: unknown;
}

/** Told about cycles (metrics, health). */
export interface LoopObserver {
  cycleStarted?(loop: string, at: number): void;
  cycleEnded?(loop: string, outcome: CycleOutcome): void;
  tickSkipped?(loop: string, at: number): void;
}

/** A source of ticks. */
export interface Ticker {
  start(onTick: () => void): void;
  stop(): void | Promise<void>;
}

/** Ticks from a node-cron expression (seconds field optional). */
export function cronTicker(expression: string): Ticker {
  let task: ReturnType<typeof cron.createTask> | undefined;
  return {
    start(onTick) {
      // The function returns at once: overlap is handled by the scheduler, not by node-cron.
      task = cron.createTask(expression, () => onTick(), { noOverlap: false });
      void task.start();
    },
    async stop() {
      await task?.destroy();
      task = undefined;
    },
  };
}

export interface LoopSchedulerOptions {
  name: string;
  runCycle: (context: CycleContext) => Promise<void>;
  ticker: Ticker;
  logger: Logger;
  clock?: Clock;
  observers?: readonly LoopObserver[];
}

/** Counters since start. */
export interface LoopStats {
  cycles: number;
  failures: number;
  skippedTicks: number;
  running: boolean;
}

export class LoopScheduler {
  private running: Promise<void> | undefined;
  private abort: AbortController | undefined;
  private started = false;
  /** The ticker is running (not yet, during a first cycle started by `start`). */
  private ticking = false;
  /** Counts `start` calls, so a first cycle that ends after a stop/start does not start the ticks. */
  private generation = 0;
  private readonly stats_: Omit<LoopStats, 'running'> = { cycles: 0, failures: 0, skippedTicks: 0 };
  private readonly clock: Clock;
  private readonly log: Logger;

  constructor(private readonly o: LoopSchedulerOptions) {
    this.clock = o.clock ?? systemClock;
    this.log = o.logger.child({ loop: o.name });
  }

  /**
   * Starts the ticks; with `firstCycleNow`, after a cycle run at once. Resolves when the ticks run
   * (or the scheduler was stopped before).
   */
  start(options: { firstCycleNow?: boolean } = {}): Promise<void> {
    if (this.started) return Promise.resolve();
    this.started = true;
    const generation = ++this.generation;
    const startTicks = () => {
      if (!this.started || generation !== this.generation) return;
      this.ticking = true;
      this.o.ticker.start(() => void this.tick());
    };
    if (!options.firstCycleNow) {
      startTicks();
      return Promise.resolve();
    }
    return this.tick().then(startTicks);
  }

  /** Handles one tick: starts a cycle, or skips when one is running. Resolves when that cycle ends. */
  tick(): Promise<void> {
    const at = this.clock();
    if (this.running) {
      this.stats_.skippedTicks++;
      this.log.warn({ skippedTicks: this.stats_.skippedTicks }, 'the previous cycle is still running; skipping this tick');
      for (const o of this.o.observers ?? []) o.tickSkipped?.(this.o.name, at);
      return Promise.resolve();
    }
    const cycle = ++this.stats_.cycles;
    this.abort = new AbortController();
    const signal = this.abort.signal;
    this.running = this.runOne({ now: at, cycle, signal }).finally(() => {
      this.running = undefined;
      this.abort = undefined;
    });
    return this.running;
  }

  private async runOne(context: CycleContext): Promise<void> {
    for (const o of this.o.observers ?? []) o.cycleStarted?.(this.o.name, context.now);
    const log = this.log.child({ cycle: context.cycle });
    let outcome: CycleOutcome;
    try {
      await this.o.runCycle(context);
      outcome = { ok: true, startedAt: context.now, durationMs: this.clock() - context.now };
      log.debug({ durationMs: outcome.durationMs }, 'cycle done');
    } catch (err) {
      this.stats_.failures++;
      outcome = { ok: false, startedAt: context.now, durationMs: this.clock() - context.now, error: err };
      log.error({ err, failures: this.stats_.failures }, 'cycle failed; the next tick runs a new one');
    }
    for (const o of this.o.observers ?? []) o.cycleEnded?.(this.o.name, outcome);
  }

  /** Stops the ticks and awaits the running cycle (aborting its signal first with `abort`). */
  async stop(options: { abort?: boolean } = {}): Promise<void> {
    this.started = false;
    if (this.ticking) {
      this.ticking = false;
      await this.o.ticker.stop();
    }
    if (options.abort) this.abort?.abort(new Error(`loop ${this.o.name} stopped`));
    await this.running;
  }

  stats(): LoopStats {
    return { ...this.stats_, running: this.running !== undefined };
  }
}
