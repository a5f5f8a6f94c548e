import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayContainer, DEFAULT_REPLAY_OPTIONS, type ReplayOptions } from '../../src/replay/replay-engine.ts';
import { summarize } from '../../src/replay/quality-tally.ts';
import { DEFAULT_UPDATE_RULES } from '../../src/replay/update-rules.ts';
import { estimate, scripted, series } from './helpers.ts';

const MB = 1_000_000;
const MIN = 60_000;

function options(overrides: Partial<ReplayOptions> & { cooldownMs?: number; minAgeMs?: number } = {}): ReplayOptions {
  const { cooldownMs, minAgeMs, ...rest } = overrides;
  return {
    ...DEFAULT_REPLAY_OPTIONS,
    initialRequest: { cpu: 100, memory: 250 * MB },
    rules: { ...DEFAULT_UPDATE_RULES, cooldownMs: cooldownMs ?? DEFAULT_UPDATE_RULES.cooldownMs, minAgeMs: minAgeMs ?? DEFAULT_UPDATE_RULES.minAgeMs },
    ...rest,
  };
}

test('slack, shortfall and OOMs against the initial request, worked by hand', () => {
  // Requests stay at 100m / 250 MB (the strategy never answers).
  // CPU used 50, 150, 100, 100 m: slack 50 / 400 = 12.5%, shortfall 50 / 400 = 12.5%.
  // Memory 100, 300, 200, 200 MB against a 250 MB limit: 300 MB is an OOM kill;
  // slack (150 + 0 + 50 + 50) / 1000 = 25%.
  const { strategy } = scripted(() => undefined);
  const s = series('a', [0.05, 0.15, 0.1, 0.1], [100 * MB, 300 * MB, 200 * MB, 200 * MB]);
  const tally = replayContainer(s, strategy, options());
  const f = summarize('scripted', [tally]);
  // CPU is stored as float32 (0.15 cores = 150.0000006 m), hence the tolerance.
  assert.ok(Math.abs((f.cpu.slackPct ?? NaN) - 12.5) < 1e-5);
  assert.ok(Math.abs((f.cpu.shortfallPct ?? NaN) - 12.5) < 1e-5);
  assert.equal(f.memory.slackPct, 25);
  assert.equal(f.memory.ooms, 1);
  assert.equal(f.memory.oomFreeDaysPct, 0);
  assert.equal(tally.restarts, 1);
  assert.equal(tally.changes, 0);
  // 4 samples at 1 min cover 4 minutes: 1 restart per 4/1440 day = 360 per day.
  assert.ok(Math.abs(f.restartsPerDay - 360) < 1e-9);
});

test('the strategy sees only the past when it is asked, once per recommendation interval', () => {
  const { strategy, journal } = scripted(() => undefined);
  const s = series('a', [0.1, 0.1, 0.1, 0.1, 0.1, 0.1], [], 30); // 30 s samples, asked every 60 s
  replayContainer(s, strategy, options());
  assert.deepEqual(journal.estimateCalls, [0, 60_000, 120_000]);
  // At t=0 nothing has been seen; at 60 s the samples at 0 and 30 s only.
  assert.deepEqual(journal.latestSeenAtCall, [-1, 30_000, 90_000]);
});

test('a recommendation applies through the bounds rule with step limits x2 up', () => {
  // Target 1000m, bounds [150m, 1100m]: from 100m one x2 step to 200m, inside the bounds; the
  // container is young (no drift), so it stays there.
  const { strategy } = scripted(() => estimate(1000, 250 * MB, [150, 250 * MB], [1100, 250 * MB]));
  const s = series('a', new Array(10).fill(0.1), []);
  const tally = replayContainer(s, strategy, options({ cooldownMs: 2 * MIN }));
  assert.equal(tally.changes, 1);
  assert.equal(tally.cpuRequestSum, 200 * 10);
});

test('a raise below the lowerBound reaches it in one change, beyond the x2 step', () => {
  // Target 1000m, bounds [900m, 1100m]: from 100m straight to 900m (x2 would give 200m, 400m, 800m, 1000m).
  const { strategy } = scripted(() => estimate(1000, 250 * MB, [900, 250 * MB], [1100, 250 * MB]));
  const s = series('a', new Array(10).fill(0.1), []);
  const tally = replayContainer(s, strategy, options({ cooldownMs: 2 * MIN }));
  assert.equal(tally.changes, 1);
  assert.equal(tally.cpuRequestSum, 900 * 10);
});

test('the cooldown spaces changes even when the target moves every minute', () => {
  const { strategy } = scripted((now) => (Math.floor(now / MIN) % 2 === 0 ? estimate(180, 250 * MB) : estimate(170, 250 * MB)));
  const s = series('a', new Array(9).fill(0.1), []);
  const tally = replayContainer(s, strategy, options({ cooldownMs: 3 * MIN }));
  // Allowed at minutes 0, 3, 6: targets 180, 170, 180 -> three changes (170m is short of 180m by
  // less than 10%: the raise waits too).
  assert.equal(tally.changes, 3);
  assert.equal(tally.cpuRequestSum, 180 * 3 + 170 * 3 + 180 * 3);
});

test('a raise short of the lowerBound by 10% or more is not held by the cooldown; cuts are (decision 0296)', () => {
  const { strategy } = scripted((now) => (Math.floor(now / MIN) % 2 === 0 ? estimate(120, 250 * MB) : estimate(180, 250 * MB)));
  const s = series('a', new Array(9).fill(0.1), []);
  const tally = replayContainer(s, strategy, options({ cooldownMs: 3 * MIN }));
  // Minutes 0 (120), 1 (180: 120m is 33% short), 4 (cut to 120, 3 min after 1), 5 (180), 8 (120).
  assert.equal(tally.changes, 5);
  assert.equal(tally.cpuRequestSum, 120 * 3 + 180 * 6);
});

test('inside the bounds, only an old enough container with a large enough difference changes', () => {
  // Request 100m; target 115m inside [50m, 200m]: 15% > 10% but only after minAge (5 min).
  const { strategy } = scripted(() => estimate(115, 250 * MB, [50, 100 * MB], [200, 400 * MB]));
  const s = series('a', new Array(8).fill(0.1), new Array(8).fill(100 * MB));
  const tally = replayContainer(s, strategy, options({ minAgeMs: 5 * MIN, cooldownMs: 0 }));
  assert.equal(tally.changes, 1);
  assert.equal(tally.cpuRequestSum, 100 * 5 + 115 * 3);
});

test('an OOM kill caps the usage seen, reports the limit, and raises memory at once despite the cooldown', () => {
  // Limit 250 MB; at minute 2 memory wants 400 MB: OOM. The strategy then asks for 500 MB,
  // applied at once (x2 step limit: at most 500 MB), so minute 3 at 400 MB is not killed.
  const { strategy, journal } = scripted((_now, j) => (j.ooms.length > 0 ? estimate(100, 500 * MB) : estimate(100, 250 * MB)));
  const s = series('a', [0.1, 0.1, 0.1, 0.1], [200 * MB, 200 * MB, 400 * MB, 400 * MB]);
  const tally = replayContainer(s, strategy, options({ cooldownMs: 60 * MIN }));
  assert.equal(tally.ooms, 1);
  assert.deepEqual(journal.ooms, [[250 * MB, 2 * MIN]]);
  assert.deepEqual(journal.memorySamples[2], [250 * MB, 2 * MIN]);
  assert.equal(tally.changes, 1);
  // Limits 250, 250, 250, 500 MB; slack 50 + 50 + 0 + 100 = 200 of 1250.
  assert.equal(tally.memoryLimitSum, 1250 * MB);
  assert.equal(tally.memorySlackSum, 200 * MB);
});

test('CPU-only traces leave memory out of the figures', () => {
  const { strategy } = scripted(() => undefined);
  const tally = replayContainer(series('a', [0.1, 0.2], []), strategy, options());
  const f = summarize('x', [tally]);
  assert.equal(f.memory.slackPct, null);
  assert.equal(f.memory.oomFreeDaysPct, null);
  assert.equal(f.memory.ooms, 0);
});

test('the memory pressure guard raises memory at once after 2 minutes at 90% of the limit', () => {
  // Limit 250 MB; usage 230 MB (92%) at minutes 1 and 2: the guard fires at minute 2 and raises
  // to max(target 250 MB, 250 MB x 1.5) = 375 MB, inside the cooldown of the first change.
  const { strategy } = scripted(() => estimate(100, 250 * MB));
  const s = series('a', [0.1, 0.1, 0.1, 0.1], [100 * MB, 230 * MB, 230 * MB, 230 * MB]);
  const tally = replayContainer(s, strategy, options({ cooldownMs: 60 * MIN }));
  assert.equal(tally.ooms, 0);
  assert.equal(tally.changes, 1);
  assert.equal(tally.memoryLimitSum, (250 * 3 + 375) * MB);
  // Without the guard nothing changes.
  const off = replayContainer(s, strategy, {
    ...options({ cooldownMs: 60 * MIN }),
    rules: { ...DEFAULT_UPDATE_RULES, cooldownMs: 60 * MIN, memoryPressure: null },
  });
  assert.equal(off.changes, 0);
});

test('outside the CPU bounds only CPU moves; memory inside its bounds stays', () => {
  // Target 300m (bounds 180-350m) and 200 MB (bounds 150-300 MB): CPU 100m is outside, memory
  // 250 MB inside -> CPU goes to 200m (x2 step), memory stays 250 MB; the container is young.
  const { strategy } = scripted(() => estimate(300, 200 * MB, [180, 150 * MB], [350, 300 * MB]));
  const s = series('a', [0.1, 0.1], [100 * MB, 100 * MB]);
  const tally = replayContainer(s, strategy, options());
  assert.equal(tally.changes, 1);
  assert.equal(tally.cpuRequestSum, 400);
  assert.equal(tally.memoryLimitSum, 500 * MB);
});

test('changes are counted by cause: the updater reason and which resources moved which way', () => {
  // Steps 100m -> 200m -> 400m -> 800m -> 1000m: four raises outside the bounds (the lowerBound
  // follows the request, so each is one x2 step); then memory 250 MB is over the 200 MB target's
  // upper bound: one cut with the same reason.
  const lower = (now: number) => Math.min(900, 150 * 2 ** Math.floor(now / (2 * MIN)));
  const { strategy } = scripted((now) =>
    now < 8 * MIN ? estimate(1000, 250 * MB, [lower(now), 250 * MB], [1100, 250 * MB]) : estimate(1000, 200 * MB, [1000, 200 * MB], [1100, 210 * MB]),
  );
  const s = series('a', new Array(12).fill(0.1), new Array(12).fill(100 * MB));
  const tally = replayContainer(s, strategy, options({ cooldownMs: 2 * MIN }));
  assert.deepEqual(Object.fromEntries(tally.changeCauses), { 'outside-bounds cpu+': 4, 'outside-bounds mem-': 1 });
  assert.equal(tally.changes, 5);
});
