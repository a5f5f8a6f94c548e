import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecentWindow } from '../../../src/model/tailor/recent-window.ts';
import { SlidingQuantile } from '../../../src/model/sliding-quantile.ts';
import { Random } from '../../../src/replay/workload/random.ts';

test('the window answers exactly what two SlidingQuantiles answer (median and p90.2), through growth and gaps', () => {
  const windowMs = 15 * 60_000;
  const recent = new RecentWindow(windowMs);
  const median = new SlidingQuantile(0.5, windowMs);
  const high = new SlidingQuantile(0.902, windowMs);
  const rng = new Random(11);
  let at = 1_700_000_000_000;
  let compared = 0;
  for (let i = 0; i < 5000; i++) {
    // Mostly 1-minute samples, bursts of 1-second ones (the ring grows past 16), and long gaps (it empties).
    at += i % 1000 < 100 ? 1000 : i % 997 === 0 ? 3_600_000 : 60_000;
    const v = i % 50 === 0 ? 0 : (1 + Math.sin(i / 200)) * rng.logBetween(0.0005, 40);
    recent.add(v, at);
    median.add(v, at);
    high.add(v, at);
    assert.equal(recent.count, median.count);
    assert.equal(recent.quantile(0.5), median.value());
    assert.equal(recent.quantile(0.902), high.value());
    compared++;
  }
  assert.equal(compared, 5000);
});

test('worked number: 0.10, 0.30, 0.20 cores give a median of 1.01^533 millicores (0.2010 cores); old samples leave', () => {
  const w = new RecentWindow(10_000);
  assert.equal(w.quantile(0.5), undefined);
  w.add(0.1, 0);
  w.add(0.3, 1000);
  w.add(0.2, 2000);
  assert.equal(w.quantile(0.5), 0.001 * Math.pow(1.01, 533));
  assert.ok(Math.abs(w.quantile(0.5)! - 0.201) < 0.0001);
  w.add(0.2, 10_000); // the sample at 0 leaves (at or before 0)
  assert.equal(w.count, 3);
  w.expire(20_000);
  assert.equal(w.count, 0);
  assert.equal(w.quantile(0.9), undefined);
});
