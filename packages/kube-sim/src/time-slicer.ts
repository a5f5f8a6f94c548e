/**
 * Cooperative yielding for long simulation passes. A pass runs its awaits on promises that resolve
 * at once (in-process API calls), so without an explicit yield it never returns to the event loop
 * and the API server cannot answer a request until the pass ends (decision 0145).
 */

/** Resolves on a later turn of the event loop, after the I/O callbacks that were ready. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Yields when called at least `sliceMs` of real time after the previous yield, else resolves at once. */
export type MaybeYield = () => Promise<void>;

/**
 * A `MaybeYield` over a real-time clock: with `sliceMs` 20, a pass of 300 ms over 2,000 pods
 * returns to the event loop about 15 times, so a request waits at most ~20 ms for it.
 */
export function timeSlicer(sliceMs: number, clock: () => number = () => performance.now()): MaybeYield {
  let last = clock();
  return async () => {
    if (clock() - last < sliceMs) return;
    await yieldToEventLoop();
    last = clock();
  };
}

/** Never yields (the default for callers that do not pass a slicer). */
export const neverYield: MaybeYield = () => Promise.resolve();
