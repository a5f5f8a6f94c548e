import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { intervalTicker, nextTickAt, type TickerTimers } from '../../src/controller/interval-ticker.ts';
import { tickerFor } from '../../src/controller/controller-runtime.ts';
import { scheduleFor } from '../../src/controller/schedule.ts';

/** Hand-driven timers: `advance(ms)` moves the clock and fires what is due, in order. */
function fakeTimers(start: number): TickerTimers & { advance(ms: number): void; pending(): number; skew: number } {
  let now = start;
  let seq = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers = {
    skew: 0,
    now: () => now,
    setTimeout: (fn: () => void, ms: number) => {
      due.set(++seq, { at: now + ms + timers.skew, fn });
      return seq;
    },
    clearTimeout: (h: unknown) => void due.delete(h as number),
    pending: () => due.size,
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const next = [...due.entries()].sort((a, b) => a[1].at - b[1].at)[0];
        if (!next || next[1].at > end) break;
        due.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = end;
    },
  };
  return timers;
}

describe('nextTickAt', () => {
  it('is the first multiple of the interval after now', () => {
    assert.equal(nextTickAt(0, 10_000), 10_000);
    assert.equal(nextTickAt(9_999, 10_000), 10_000);
    assert.equal(nextTickAt(10_000, 10_000), 20_000);
    assert.equal(nextTickAt(Date.UTC(2026, 0, 1, 12, 3, 7), 300_000), Date.UTC(2026, 0, 1, 12, 5));
  });
});

describe('intervalTicker', () => {
  it('ticks on the round multiples of the interval and stops when told', () => {
    const timers = fakeTimers(Date.UTC(2026, 0, 1, 0, 0, 3));
    const ticks: number[] = [];
    const ticker = intervalTicker(10_000, timers);
    ticker.start(() => ticks.push(timers.now()));
    timers.advance(35_000);
    assert.deepEqual(
      ticks,
      [10_000, 20_000, 30_000].map((s) => Date.UTC(2026, 0, 1) + s),
    );
    void ticker.stop();
    assert.equal(timers.pending(), 0);
    timers.advance(60_000);
    assert.equal(ticks.length, 3);
  });

  it('never ticks twice for one time when a timer fires early', () => {
    const timers = fakeTimers(0);
    timers.skew = -5; // every timer fires 5 ms before its time
    const ticks: number[] = [];
    intervalTicker(1000, timers).start(() => ticks.push(timers.now()));
    timers.advance(3500);
    assert.deepEqual(ticks, [995, 1995, 2995]);
  });

  it('does not touch Intl (node-cron does, paging in ICU time-zone data)', () => {
    const Original = Intl.DateTimeFormat;
    let made = 0;
    const counting = function (this: unknown, ...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
      made++;
      return new Original(...args);
    } as unknown as typeof Intl.DateTimeFormat;
    Intl.DateTimeFormat = counting;
    try {
      const timers = fakeTimers(0);
      intervalTicker(10_000, timers).start(() => undefined);
      timers.advance(30_000);
      // The controller's ticker for --interval, started and stopped at once.
      const schedule = scheduleFor(10_000);
      assert.ok(!('error' in schedule));
      const real = tickerFor(schedule);
      real.start(() => undefined);
      void real.stop();
      assert.equal(made, 0);
    } finally {
      Intl.DateTimeFormat = Original;
    }
  });
});
