import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timeSlicer } from '../src/time-slicer.ts';

test('timeSlicer yields only once the slice has passed since the last yield', async () => {
  let now = 1000;
  {
    const maybeYield = timeSlicer(20, () => now);
    now = 1019; // 19 ms: still inside the slice, resolves without a turn of the event loop
    let resolvedInline = false;
    const first = maybeYield().then(() => (resolvedInline = true));
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(resolvedInline, true);
    await first;
    now = 1020; // 20 ms: yields (setImmediate), then the slice restarts at 1020
    let yielded = false;
    const second = maybeYield().then(() => (yielded = true));
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(yielded, false, 'waits for a turn of the event loop');
    await second;
    now = 1039; // 19 ms after the yield: inline again
    let third = false;
    void maybeYield().then(() => (third = true));
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(third, true);
  }
});
