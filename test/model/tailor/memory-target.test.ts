import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryTarget } from '../../../src/model/tailor/memory-target.ts';
import { TAILOR_DEFAULTS } from '../../../src/model/tailor/options.ts';
import { tailorSettings } from '../../../src/model/tailor/experiments.ts';
import { LOW_CHURN_OPTIONS } from '../../../src/model/tailor/low-churn.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const MIB = 1024 ** 2;

/**
 * Three days at a steady 1,000 / 1.12 MiB (the follow rule's limit for the next hour is then
 * 1,000 MiB, its pressure line 900 MiB), then one hour shaped by `minutes` (MiB per minute, the
 * rest of the hour back at the steady level); returns the peak the target covers afterwards.
 */
function afterHour(minutes: number[]): number {
  const m = new MemoryTarget(tailorSettings());
  const steady = (1000 / 1.12) * MIB;
  let t = 0;
  for (; t < 3 * DAY; t += MIN) m.add(steady, t);
  for (let i = 0; i < 60; i++, t += MIN) m.add(i < minutes.length ? minutes[i]! * MIB : steady, t);
  for (let i = 0; i < 60; i++, t += MIN) m.add(steady, t);
  return m.peak(t) / MIB;
}

test('a jump past the limit faster than the pressure guard is a miss: the follow rule is suspended', () => {
  // 850 -> 1,010 MiB in one minute: under the 900 MiB line, then past the 1,000 MiB limit.
  assert.equal(Math.round(afterHour([850, 1010])), 1010, 'the 7-day peak rule covers the jump');
});

test('growth the guard would have caught is not a miss: the follow rule stays in force', () => {
  // 910, 950 MiB: two minutes at the 900 MiB line, the guard raises the limit to 1,500 MiB first.
  assert.equal(Math.round(afterHour([910, 950, 1010])), 893, 'back to the last hours: 1,000 / 1.12');
});

test('memoryTrendHours: a leak the follow rule does not cover yet is raised for the hold; noisy steady peaks are not', () => {
  // 12 hours (the follow rule needs 2 days of checks, so the 7-day peak rule is in force), one
  // sample a minute: a leak of 10 MiB an hour from 500 MiB, and a steady 500 MiB +- 5 MiB.
  const feed = (m: MemoryTarget, mib: (t: number) => number) => {
    for (let t = 0; t < 12 * HOUR; t += MIN) m.add(mib(t) * MIB, t);
  };
  const leak = (t: number) => 500 + (10 * t) / HOUR;
  const steady = (t: number) => 500 + 5 * Math.sin(t / (37 * MIN)) * Math.cos(t / (11 * MIN));
  const now = 12 * HOUR - MIN;
  const tested = new MemoryTarget(tailorSettings({ memoryTrendHours: 6 }));
  const plain = new MemoryTarget(tailorSettings({ memoryTrendHours: 0 }));
  feed(tested, leak);
  feed(plain, leak);
  // Without the test a change covers the peak of now (~620 MiB) only; with it, 2 h more at 10 MiB an hour.
  const need = plain.peak(now) / MIB;
  assert.ok(Math.abs(plain.holdPeak(now) / MIB - need) < 1, `plain ${plain.holdPeak(now) / MIB} vs ${need}`);
  const covered = tested.holdPeak(now) / MIB - need;
  assert.ok(covered > 15 && covered < 25, `growth covered ${covered} MiB`);
  const quiet = new MemoryTarget(tailorSettings({ memoryTrendHours: 6 }));
  feed(quiet, steady);
  assert.equal(quiet.holdPeak(now), quiet.peak(now));
});

test("an OOM kill holds limit x oomBumpFactor; a VPA's own bump holds max(limit x its ratio, limit + its minimum)", () => {
  const afterOom = (bump?: { oomBumpUpRatio?: number; oomMinBumpUpBytes?: number }) => {
    const m = new MemoryTarget(tailorSettings());
    for (let t = 0; t < HOUR; t += MIN) m.add(500 * MIB, t);
    m.recordOom(1024 * MIB, HOUR, bump);
    return m.peak(HOUR + MIN) / MIB;
  };
  assert.equal(afterOom(), 1024 * TAILOR_DEFAULTS.oomBumpFactor);
  assert.equal(afterOom({ oomBumpUpRatio: 3 }), 3072, 'upstream e2e: 1 GiB with ratio 3 -> 3 GiB');
  assert.equal(afterOom({ oomMinBumpUpBytes: 2048 * MIB }), 3072, 'the minimum bump wins over the default factor: 1 GiB + 2 GiB');
  assert.equal(afterOom({ oomBumpUpRatio: 1, oomMinBumpUpBytes: 0 }), 1024, 'ratio 1, no minimum: the limit itself');
});

/**
 * memoryFollowDipTrustMs (decision 0297): three weekdays at 1,000 MiB, then `dip` (MiB for each
 * minute from the start of the dip); returns a model fed up to `minutes` into it.
 */
function afterDip(options: Parameters<typeof tailorSettings>[0], dip: (minute: number) => number, minutes: number): { m: MemoryTarget; t: number } {
  const m = new MemoryTarget(tailorSettings(options));
  let t = 0;
  for (; t < 3 * DAY; t += MIN) m.add(1000 * MIB, t);
  for (let i = 0; i < minutes; i++, t += MIN) m.add(dip(i) * MIB, t);
  return { m, t: t - MIN };
}

const DIP_TRUST = { memoryFollowDipTrustMs: 2 * DAY };
const LIMIT = 1 + TAILOR_DEFAULTS.memoryMargin;

test('memoryFollowDipTrustMs: through a weekend the follow rule has not been tested on, the limit stays at the weekdays peak', () => {
  const weekend = 47 * 60; // Saturday 00:00 to Sunday 23:00, the last hour before Monday's return
  const tested = afterDip(DIP_TRUST, () => 700, weekend);
  assert.equal(Math.round((tested.m.peak(tested.t) * LIMIT) / MIB), 1000, 'a return to 1,000 MiB stays under the limit');
  const plain = afterDip({ memoryFollowDipTrustMs: 0 }, () => 700, weekend);
  assert.equal(Math.round((plain.m.peak(plain.t) * LIMIT) / MIB), 784, 'without it, 700 x 1.12: Monday is an OOM kill');
});

test('memoryFollowDipTrustMs: tailor-low-churn, the default, keeps the weekdays peak through a weekend; tailor follows the dip', () => {
  const lowChurn = afterDip(LOW_CHURN_OPTIONS, () => 700, 47 * 60);
  assert.equal(Math.round((lowChurn.m.peak(lowChurn.t) * LIMIT) / MIB), 1000);
  const tailor = afterDip({}, () => 700, 47 * 60);
  assert.equal(Math.round((tailor.m.peak(tailor.t) * LIMIT) / MIB), 784);
});

test('memoryFollowDipTrustMs: a dip that lasts past 2 days without a miss is followed', () => {
  const { m, t } = afterDip(DIP_TRUST, () => 700, 51 * 60);
  assert.equal(Math.round((m.peak(t) * LIMIT) / MIB), 784);
});

test('memoryFollowDipTrustMs: a dip that ended with a gradual climb (the guard follows it) earns the trust at once', () => {
  // 10 h at 700 MiB, back up by 20 MiB an hour for 15 h, 10 h at 1,000 MiB, then a second dip.
  const dip = (minute: number) => {
    const hour = minute / 60;
    if (hour < 10) return 700;
    if (hour < 25) return 700 + 20 * (hour - 10);
    if (hour < 35) return 1000;
    return 700;
  };
  const { m, t } = afterDip(DIP_TRUST, dip, 38 * 60);
  assert.equal(Math.round((m.peak(t) * LIMIT) / MIB), 784, 'the second dip is followed after its first hours');
  const fresh = afterDip(DIP_TRUST, (minute) => (minute < 35 * 60 ? 1000 : 700), 38 * 60);
  assert.equal(Math.round((fresh.m.peak(fresh.t) * LIMIT) / MIB), 1000, 'a first dip is not');
});
