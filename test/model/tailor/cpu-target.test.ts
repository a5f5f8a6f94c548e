import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CpuTarget, quantileLoss } from '../../../src/model/tailor/cpu-target.ts';
import { tailorSettings } from '../../../src/model/tailor/experiments.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

test('quantile loss: under-predicting costs q, over-predicting 1 - q', () => {
  assert.ok(Math.abs(quantileLoss(0.9, 150, 100) - 45) < 1e-9);
  assert.ok(Math.abs(quantileLoss(0.9, 100, 150) - 5) < 1e-9);
  assert.equal(quantileLoss(0.9, 100, 100), 0);
});

test('a flat container keeps the all-hours model; a daily cycle switches to the hour-of-day one', () => {
  // Daily square wave: 1 core from 08:00 to 20:00, 0.1 core otherwise, for 4 days.
  const cycle = new CpuTarget(tailorSettings());
  const flat = new CpuTarget(tailorSettings());
  for (let t = 0; t < 4 * DAY; t += MIN) {
    const hour = (t % DAY) / HOUR;
    cycle.add(hour >= 8 && hour < 20 ? 1 : 0.1, t);
    flat.add(0.5, t);
  }
  // At 02:00 the hour-of-day model knows night is quiet; the reach floor allows 1 / 2^6 at most.
  const night = cycle.target(4 * DAY + 2 * HOUR);
  assert.ok(night >= 0.1 && night < 0.11, `night ${night}`);
  // At 07:50 the 08:00 hour is within the 15-minute horizon: 1 core.
  assert.ok(cycle.target(4 * DAY + 7 * HOUR + 50 * MIN) >= 1);
  // The flat container: p90 of 0.5 core at any hour (upper edge of a 2% bucket).
  const f = flat.target(4 * DAY + 2 * HOUR);
  assert.ok(f >= 0.5 && f <= 0.512, `flat ${f}`);
});

test('bursts that pass within hours are forgotten within hours when the short half-life predicts better', () => {
  // 4 hours at 1 core, then 27 hours at 0.05 core, repeated (a 31-hour period: no hour-of-day pattern).
  const feed = (target: CpuTarget, until: number) => {
    for (let t = 0; t < until; t += MIN) target.add(t % (31 * HOUR) < 4 * HOUR ? 1 : 0.05, t);
  };
  const end = 6 * 31 * HOUR + 14 * HOUR; // 10 hours after the 7th burst ended
  const adaptive = new CpuTarget(tailorSettings({ cpuSeasonal: false }));
  const fixed = new CpuTarget(tailorSettings({ cpuSeasonal: false, flatAltHalfLivesMs: [] }));
  feed(adaptive, end);
  feed(fixed, end);
  // The 12-hour half-life still holds the burst in its p90.2; the 3-hour one has let it go.
  assert.ok(fixed.target(end) > 0.9, `12 h half-life: ${fixed.target(end)}`);
  assert.ok(adaptive.target(end) < 0.1, `chosen half-life: ${adaptive.target(end)}`);
});

test('cpuQuantileCandidates: a rising container, whose past p90.2 lags behind, gets the higher quantile that predicted it better', () => {
  // CPU rises steadily from 0.1 to 1 core over 2 days (with a little noise), no daily pattern.
  const feed = (target: CpuTarget) => {
    for (let t = 0, i = 0; t < 2 * DAY; t += MIN, i++) target.add(0.1 + (0.9 * t) / (2 * DAY) + (i % 5) * 0.002, t);
  };
  const plain = new CpuTarget(tailorSettings({ cpuSeasonal: false, cpuSurge: false, flatAltHalfLivesMs: [] }));
  const chosen = new CpuTarget(tailorSettings({ cpuSeasonal: false, cpuSurge: false, flatAltHalfLivesMs: [] }, { cpuQuantileCandidates: [0.8, 0.99] }));
  feed(plain);
  feed(chosen);
  // Usage is ~1 core now: the p90.2 of a 12 h half-life lags ~2 h behind (below 1 core, 2% buckets), the p99 ~10 min.
  const p = plain.target(2 * DAY);
  const c = chosen.target(2 * DAY);
  assert.ok(p < 1 && c >= 1, `p90.2 ${p}, chosen ${c}`);
});

test('cpuChangeCostCoreHours: a daily cycle is followed where the night saves more CPU than its two changes cost, held flat where it does not', () => {
  // Two square waves of the same shape: day (08:00-20:00) at 10x night; one 10 times the other.
  const feed = (target: CpuTarget, day: number) => {
    for (let t = 0; t < 4 * DAY; t += MIN) {
      const hour = (t % DAY) / HOUR;
      target.add(hour >= 8 && hour < 20 ? day : day / 10, t);
    }
  };
  // A change priced at 2 core-hours: the large night saves 0.9 x 12 = 10.8 core-hours for two
  // changes (4), the small one 1.08 (less than 4).
  const options = tailorSettings({}, { cpuChangeCostCoreHours: 2 });
  const large = new CpuTarget(options);
  const small = new CpuTarget(options);
  feed(large, 1);
  feed(small, 0.1);
  const night = 4 * DAY + 2 * HOUR;
  // The large one steps down for the night (to the reach floor's ramp, 1 / 8 core, from 02:00).
  assert.ok(large.target(night) < 0.2, `large night ${large.target(night)}`);
  assert.ok(small.target(night) >= 0.1, `small night ${small.target(night)}`);
  // Without the price the small one's night is followed too.
  const free = new CpuTarget(tailorSettings());
  feed(free, 0.1);
  assert.ok(free.target(night) < 0.011, `small night, no price ${free.target(night)}`);
});
