/**
 * The usage outline fits the data: 27 minutes of samples in an 8-day window fill many buckets
 * (not one), the buckets never finer than the samples' step, the merge of buckets exact whatever
 * order the samples arrive in, a full window's data bucketed over the whole window as before, and
 * the oldest and newest sample kept for the report's header.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OwnerIndex } from '../../../src/metrics/owner-resolution.ts';
import { UsageOutline } from '../../../src/report/audit/usage-outline.ts';
import { rowId } from '../../../src/report/report-rows.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const END = Date.UTC(2026, 0, 9, 6);
const START = END - 8 * DAY;
const owners = new OwnerIndex([]);
const key = { namespace: 'shop', pod: 'web', container: 'app' };
const id = rowId('shop', { kind: 'Pod', name: 'web' }, 'app');

function series(times: number[], value: (t: number) => number) {
  return { key, times, values: times.map(value) };
}

const filled = (xs: readonly (number | null)[]) => xs.filter((v) => v !== null).length;

test('27 minutes of data in an 8-day window fill at least 15 buckets, none finer than the 1-minute step', () => {
  const outline = new UsageOutline(owners, START, END, 100, MINUTE);
  const times = Array.from({ length: 28 }, (_, i) => END - 27 * MINUTE + i * MINUTE);
  outline.cpu(series(times, (t) => 0.1 + ((t / MINUTE) % 7) / 100));
  outline.memory(series(times, () => 2 ** 28));
  const o = outline.get(id)!;
  assert.ok(filled(o.cpu) >= 15, `${filled(o.cpu)} buckets with a sample`);
  assert.ok(o.bucketMs >= MINUTE, `bucket ${o.bucketMs} ms`);
  assert.equal(o.start + 100 * o.bucketMs, END);
  // No gap between the first and last filled bucket: the line is one run.
  const first = o.cpu.findIndex((v) => v !== null);
  assert.equal(
    o.cpu.slice(first).every((v) => v !== null),
    true,
  );
  assert.equal(o.firstSampleAt, END - 27 * MINUTE);
  assert.equal(o.lastSampleAt, END);
});

test('buckets merge exactly: the same peaks whatever order the samples come in, and a full window is bucketed over the window', () => {
  const times = Array.from({ length: 8 * 24 * 12 + 1 }, (_, i) => START + i * 5 * MINUTE);
  const value = (t: number) => 0.05 + (Math.sin(t / 3_600_000) + 1) / 10;
  const forward = new UsageOutline(owners, START, END, 100, MINUTE);
  // The newest day first (the outline starts fine), then the rest, then all again backwards.
  const backward = new UsageOutline(owners, START, END, 100, MINUTE);
  backward.cpu(series(times.slice(-288), value));
  backward.cpu(series(times.slice(0, -288).reverse(), value));
  forward.cpu(series(times, value));
  const coarse = new UsageOutline(owners, START, END, 100);
  coarse.cpu(series(times, value));
  assert.deepEqual(backward.get(id), forward.get(id));
  assert.deepEqual(forward.get(id), coarse.get(id));
  const o = forward.get(id)!;
  assert.equal(o.start, START);
  assert.equal(o.bucketMs, (8 * DAY) / 100);
  assert.equal(filled(o.cpu), 100);
  // Bucket 0's peak is the highest of its own samples.
  const inFirst = times.filter((t) => t < START + o.bucketMs);
  assert.equal(o.cpu[0], Math.max(...inFirst.map(value)) * 1000);
});
