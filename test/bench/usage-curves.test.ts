import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cores, cpuSecondsTotal } from '../../bench/usage-curves.ts';

const DAY = 24 * 3600_000;
const STEP = 5 * 60_000;
const START = Date.UTC(2026, 0, 1);

test('the bench CPU counter only grows over 8 days, so rate() sees no reset', () => {
  for (const i of [0, 1, 7, 29, 30, 999]) {
    let previous = -Infinity;
    for (let t = START; t <= START + 8 * DAY; t += STEP) {
      const value = cpuSecondsTotal(i, t, START);
      assert.ok(value > previous, `container ${i}: counter fell from ${previous} to ${value} at ${new Date(t).toISOString()}`);
      previous = value;
    }
  }
});

test('the bench CPU counter grows at the usage curve: its rate over a step is the curve there', () => {
  for (const i of [0, 13, 29]) {
    for (let t = START + STEP; t <= START + 8 * DAY; t += 7 * STEP) {
      const rate = (cpuSecondsTotal(i, t, START) - cpuSecondsTotal(i, t - STEP, START)) / (STEP / 1000);
      const mid = cores(i, t - STEP / 2);
      assert.ok(Math.abs(rate - mid) <= 1e-3 * mid, `container ${i} at ${new Date(t).toISOString()}: rate ${rate} against ${mid} cores`);
    }
  }
});

test('the bench CPU counter starts at the container index', () => {
  assert.equal(cpuSecondsTotal(5, START, START), 5);
});
