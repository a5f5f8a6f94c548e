/**
 * Virtual time for components that take an injected {@link Clock} and {@link Sleep} but also do
 * real I/O (HTTP to a sim): the test moves time forward, one timer at a time, and only once every
 * tracked I/O call has finished and the event loop has run what followed it. Time then passes
 * only in sleeps, never during a request, so a loaded machine cannot change what a test sees.
 *
 * Worked example: an elector sleeps 250 ms, then renews over HTTP (5 real ms, 0 virtual ms), then
 * sleeps 250 ms again: `advance(600)` fires the timer at +250, waits for the renewal to finish,
 * fires the one at +500, waits again, and stops at +600 with the next timer pending at +750.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Clock, Sleep } from '../../src/kube/clock.ts';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

export class VirtualTime {
  private current: number;
  private readonly timers: Timer[] = [];
  private seq = 0;
  private inFlight = 0;

  constructor(startAt = 1_700_000_000_000) {
    this.current = startAt;
  }

  /** The virtual clock, for a component's `clock` option. */
  readonly clock: Clock = () => this.current;

  /** A sleep on the virtual clock, for a component's `sleep` option; aborting rejects it at once. */
  readonly sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer: Timer = {
        at: this.current + Math.max(0, ms),
        seq: this.seq++,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.remove(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
    });

  /** Milliseconds since the epoch, virtually. */
  now(): number {
    return this.current;
  }

  /** Counts `work` as I/O in flight until it settles: time does not move meanwhile. */
  track<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    let p: Promise<T>;
    try {
      p = work();
    } catch (err) {
      this.inFlight--;
      return Promise.reject(err);
    }
    return p.finally(() => this.inFlight--);
  }

  /**
   * Moves time forward by `ms`, firing due timers in order and letting the work each one starts
   * finish before the next; `onStep` runs after each timer's work (and once at the start).
   */
  async advance(ms: number, onStep?: () => void): Promise<void> {
    const end = this.current + ms;
    await this.settle();
    onStep?.();
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > end) break;
      this.fire(next);
      await this.settle();
      onStep?.();
    }
    this.current = end;
  }

  /**
   * Fires timers until `condition` holds; returns the virtual time that took. Fails when it does
   * not hold within `maxMs` of virtual time, or when nothing is left to happen.
   */
  async until(what: string, condition: () => boolean, maxMs: number): Promise<number> {
    const start = this.current;
    await this.settle();
    while (!condition()) {
      const next = this.earliest();
      if (!next) throw new Error(`waiting for ${what}: no timer pending`);
      if (next.at - start > maxMs) throw new Error(`waiting for ${what}: not within ${maxMs} virtual ms`);
      this.fire(next);
      await this.settle();
    }
    return this.current - start;
  }

  /** Waits (in real time) until no tracked I/O is in flight and the event loop has caught up. */
  async settle(): Promise<void> {
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.inFlight === 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (this.inFlight === 0) return;
      } else {
        await delay(1);
      }
    }
  }

  private fire(timer: Timer): void {
    this.remove(timer);
    this.current = Math.max(this.current, timer.at);
    timer.resolve();
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    return best;
  }

  private remove(timer: Timer): void {
    const i = this.timers.indexOf(timer);
    if (i >= 0) this.timers.splice(i, 1);
  }
}
