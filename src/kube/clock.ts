/**
 * Time as an injected dependency: controller code asks a {@link Clock} for the time and a
 * {@link Sleep} to wait, so tests can drive both. The real ones live here and nowhere else.
 */
import { setTimeout as delay } from 'node:timers/promises';

/** Milliseconds since the epoch. */
export type Clock = () => number;

/** Waits `ms` milliseconds; rejects with the signal's reason when it is aborted first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The wall clock. */
export const systemClock: Clock = () => Date.now();

/** A timer-based sleep that an AbortSignal cuts short. */
export const realSleep: Sleep = async (ms, signal) => {
  await delay(Math.max(0, ms), undefined, signal ? { signal } : undefined);
};
