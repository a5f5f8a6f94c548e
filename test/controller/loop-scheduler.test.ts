import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { LoopScheduler, cronTicker, type CycleOutcome, type Ticker } from '../../src/controller/loop-scheduler.ts';
import { silentLogger } from '../../src/observability/logger.ts';

/** A ticker driven by the test. */
function manualTicker(): Ticker & { fire: () => void; started: boolean } {
  let onTick: (() => void) | undefined;
  return {
    started: false,
    start(fn) {
      onTick = fn;
      this.started = true;
    },
    stop() {
      onTick = undefined;
      this.started = false;
    },
    fire() {
      onTick?.();
    },
  };
}

/** A cycle that waits until released, so tests control how long it runs. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

test('a tick during a running cycle is skipped and counted; the slow cycle is not interrupted', async () => {
  let now = 1_000;
  const g = gate();
  const seen: number[] = [];
  const skipped: number[] = [];
  const ended: CycleOutcome[] = [];
  const scheduler = new LoopScheduler({
    name: 'test',
    ticker: manualTicker(),
    logger: silentLogger(),
    clock: () => now,
    runCycle: async ({ now: at, cycle }) => {
      seen.push(at);
      if (cycle === 1) await g.opened;
    },
    observers: [{ tickSkipped: (_loop, at) => skipped.push(at), cycleEnded: (_loop, o) => ended.push(o) }],
  });
  const first = scheduler.tick();
  now = 61_000;
  await scheduler.tick();
  now = 121_000;
  await scheduler.tick();
  assert.deepEqual(scheduler.stats(), { cycles: 1, failures: 0, skippedTicks: 2, running: true });
  assert.deepEqual(skipped, [61_000, 121_000]);
  now = 150_000;
  g.open();
  await first;
  assert.deepEqual(ended, [{ ok: true, startedAt: 1_000, durationMs: 149_000 }]);
  now = 181_000;
  await scheduler.tick();
  assert.deepEqual(seen, [1_000, 181_000], 'the cycle after the slow one runs at the next tick');
  assert.deepEqual(scheduler.stats(), { cycles: 2, failures: 0, skippedTicks: 2, running: false });
});

test('a failing cycle is counted and the next tick runs a new one', async () => {
  const outcomes: boolean[] = [];
  let calls = 0;
  const scheduler = new LoopScheduler({
    name: 'test',
    ticker: manualTicker(),
    logger: silentLogger(),
    runCycle: async () => {
      if (++calls === 1) throw new Error('prometheus down');
    },
    observers: [{ cycleEnded: (_l, o) => outcomes.push(o.ok) }],
  });
  await scheduler.tick();
  await scheduler.tick();
  assert.deepEqual(outcomes, [false, true]);
  assert.deepEqual(scheduler.stats(), { cycles: 2, failures: 1, skippedTicks: 0, running: false });
});

test('stop awaits the running cycle; stop({ abort }) aborts its signal first', async () => {
  const ticker = manualTicker();
  const g = gate();
  let finished = false;
  const scheduler = new LoopScheduler({
    name: 'test',
    ticker,
    logger: silentLogger(),
    runCycle: async () => {
      await g.opened;
      finished = true;
    },
  });
  void scheduler.start();
  assert.equal(ticker.started, true);
  ticker.fire();
  const stopping = scheduler.stop();
  assert.equal(ticker.started, false, 'no more ticks');
  await delay(20);
  assert.equal(finished, false, 'stop is still waiting for the cycle');
  g.open();
  await stopping;
  assert.equal(finished, true);

  let reason: unknown;
  const aborting = new LoopScheduler({
    name: 'test',
    ticker: manualTicker(),
    logger: silentLogger(),
    runCycle: ({ signal }) =>
      new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => {
          reason = signal.reason;
          resolve();
        });
      }),
  });
  void aborting.tick();
  await aborting.stop({ abort: true });
  assert.match(String(reason), /loop test stopped/);
});

test('node-cron drives the ticks (every second)', async (t) => {
  const times: number[] = [];
  const scheduler = new LoopScheduler({
    name: 'cron',
    ticker: cronTicker('* * * * * *'),
    logger: silentLogger(),
    runCycle: async ({ now }) => void times.push(now),
  });
  t.after(() => scheduler.stop());
  // Wait for two ticks (a loaded machine may fire a tick late, or skip one), then check the pace
  // with bounds lateness cannot break: never more ticks than wall-clock seconds began meanwhile
  // (each tick is for one of them), and the next tick within 3 s.
  const started = Date.now();
  void scheduler.start();
  while (times.length < 2 && Date.now() - started < 15_000) await delay(20);
  await scheduler.stop();
  const secondsBegun = Math.floor(Date.now() / 1000) - Math.floor(started / 1000);
  assert.ok(times.length >= 2 && times.length <= secondsBegun, `${times.length} cycles in ${secondsBegun} new seconds`);
  const gap = times[1]! - times[0]!;
  assert.ok(gap < 3000, `ticks ${gap} ms apart`);
  const count = times.length;
  await delay(1100);
  assert.equal(times.length, count, 'no tick after stop');
});

test('start({ firstCycleNow }) runs a cycle at once and starts the ticks only when it ended: no tick is skipped meanwhile', async () => {
  const ticker = manualTicker();
  const g = gate();
  const cycles: number[] = [];
  const scheduler = new LoopScheduler({
    name: 'test',
    ticker,
    logger: silentLogger(),
    runCycle: async ({ cycle }) => {
      cycles.push(cycle);
      if (cycle === 1) await g.opened; // the first cycle reads the history: longer than an interval
    },
  });
  const ticking = scheduler.start({ firstCycleNow: true });
  assert.deepEqual(cycles, [1]);
  assert.equal(ticker.started, false, 'no ticks during the first cycle');
  ticker.fire();
  g.open();
  await ticking;
  assert.equal(ticker.started, true);
  ticker.fire();
  await scheduler.stop();
  assert.deepEqual(cycles, [1, 2]);
  assert.equal(scheduler.stats().skippedTicks, 0);

  // Stopped during its first cycle, the scheduler does not start the ticks when that cycle ends.
  const g2 = gate();
  const ticker2 = manualTicker();
  const stopped = new LoopScheduler({ name: 'test', ticker: ticker2, logger: silentLogger(), runCycle: () => g2.opened });
  const first = stopped.start({ firstCycleNow: true });
  const stopping = stopped.stop();
  g2.open();
  await Promise.all([first, stopping]);
  assert.equal(ticker2.started, false);
});
