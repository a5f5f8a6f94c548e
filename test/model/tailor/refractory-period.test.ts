import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryTarget } from '../../../src/model/tailor/memory-target.ts';
import { tailorSettings, type TailorExperiments } from '../../../src/model/tailor/experiments.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const MIB = 1024 ** 2;

/**
 * A container at 100 MiB that jumps to 1,600 MiB for one minute at each of `episodes` (ms); 1-minute
 * samples up to `until`. The jumps come at a different hour each day (every 25 h), so the
 * hour-of-day and follow rules miss on them and the 7-day peak rule is the one in force.
 */
function feed(experiments: Partial<TailorExperiments>, episodes: number[], until: number): MemoryTarget {
  const m = new MemoryTarget(tailorSettings({}, experiments));
  const jumps = new Set(episodes);
  for (let t = 0; t < until; t += MIN) m.add((jumps.has(t) ? 1600 : 100) * MIB, t);
  return m;
}

const REFRACTORY: Partial<TailorExperiments> = { memoryRefractoryQuietMs: 4 * HOUR };
/** Five episodes 25 h apart: 2 h, 27 h, 52 h, 77 h, 102 h; the earliest next one is at 127 h. */
const EPISODES = [0, 1, 2, 3, 4].map((n) => 2 * HOUR + n * 25 * HOUR);

test('refractory period: between episodes the limit covers the quiet level, not the 7-day peak', () => {
  const at = 118 * HOUR;
  const without = feed({}, EPISODES, at);
  assert.equal(without.peak(at) / MIB, 1600, 'without the rule: the 7-day peak');
  const m = feed(REFRACTORY, EPISODES, at);
  assert.equal(m.peak(at) / MIB, 100, 'with it: the quiet level, 16 h after the last episode');
});

test('refractory period: the limit climbs back one x2 step per 15 min before the earliest next episode', () => {
  // Earliest next: 102 h + 25 h = 127 h. 30 min before: one step to go plus one spare -> 1,600 / 2.
  assert.equal(feed(REFRACTORY, EPISODES, 126.5 * HOUR).peak(126.5 * HOUR) / MIB, 800);
  assert.equal(feed(REFRACTORY, EPISODES, 126.8 * HOUR).peak(126.8 * HOUR) / MIB, 1600);
});

test('refractory period: not trusted before three gaps between episodes', () => {
  // After the third episode (52 h) only two gaps have been seen.
  const at = 64 * HOUR;
  assert.equal(feed(REFRACTORY, EPISODES.slice(0, 3), at).peak(at) / MIB, 1600);
});

test('refractory period: an episode sooner than the learned gap is a miss; trust starts again', () => {
  // A sixth episode at 120 h, before the earliest expected (127 h): the limit was low when it came.
  const at = 130 * HOUR;
  const m = feed(REFRACTORY, [...EPISODES, 120 * HOUR], at);
  assert.equal(m.peak(at) / MIB, 1600, 'after the miss, the 7-day peak again');
});

test('refractory period: an OOM kill while the period is in force is a miss', () => {
  const kill = 110 * HOUR;
  const m = feed(REFRACTORY, EPISODES, kill);
  m.recordOom(100 * MIB, kill);
  const at = 123 * HOUR;
  for (let t = kill; t < at; t += MIN) m.add(100 * MIB, t);
  // Past the kill's own floor (limit x 1.5 for 12 h): the 7-day peak, not the quiet level.
  assert.equal(m.peak(at) / MIB, 1600);
});

test('refractory period: trusted after zero gaps still needs one gap seen (never an endless quiet period)', () => {
  // One episode only, no gap yet: with trust after 0 gaps the limit must still cover the 7-day peak.
  const at = 20 * HOUR;
  assert.equal(feed({ ...REFRACTORY, memoryRefractoryTrustGaps: 0 }, EPISODES.slice(0, 1), at).peak(at) / MIB, 1600);
});
