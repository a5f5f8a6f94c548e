import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryTarget } from '../../../src/model/tailor/memory-target.ts';
import { TAILOR_DEFAULTS } from '../../../src/model/tailor/options.ts';
import { tailorSettings } from '../../../src/model/tailor/experiments.ts';

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
