/** The chaos workloads' seeded usage: reproducible, within its ranges, moving both ways, OOM-prone ones jumping. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CPU_RANGE, MEMORY_RANGE, usageSchedule } from './usage-schedule.ts';
import { CHAOS_WORKLOADS } from './workloads.ts';

test('the same seed gives the same levels; each workload starts at 0 and changes every 2-5 minutes', () => {
  const levels = usageSchedule(7, 45, CHAOS_WORKLOADS);
  assert.deepEqual(levels, usageSchedule(7, 45, CHAOS_WORKLOADS));
  assert.notDeepEqual(levels, usageSchedule(8, 45, CHAOS_WORKLOADS));
  for (const w of CHAOS_WORKLOADS) {
    const mine = levels.filter((l) => l.workload === w.name);
    assert.equal(mine[0]!.at, 0);
    for (let i = 1; i < mine.length; i++) {
      const gap = mine[i]!.at - mine[i - 1]!.at;
      assert.ok(gap >= 120_000 && gap <= 300_000, `${w.name}: ${gap} ms`);
    }
    assert.ok(mine.length >= 9, `${w.name}: ${mine.length} levels in 45 minutes`);
  }
});

test('cpu and memory within their ranges, both going up and down; only OOM-prone workloads jump above the memory range', () => {
  const levels = usageSchedule(7, 45, CHAOS_WORKLOADS);
  const prone = new Set(CHAOS_WORKLOADS.filter((w) => w.oomProne).map((w) => w.name));
  let ups = 0;
  let downs = 0;
  for (const w of CHAOS_WORKLOADS) {
    const mine = levels.filter((l) => l.workload === w.name);
    for (let i = 1; i < mine.length; i++) {
      if (mine[i]!.memory > mine[i - 1]!.memory) ups++;
      else downs++;
    }
  }
  assert.ok(ups > 50 && downs > 50, `${ups} rises, ${downs} falls`);
  for (const l of levels) {
    assert.ok(l.cpu >= CPU_RANGE[0] && l.cpu <= CPU_RANGE[1], JSON.stringify(l));
    assert.ok(l.memory >= MEMORY_RANGE[0], JSON.stringify(l));
    if (!prone.has(l.workload)) assert.ok(l.memory <= MEMORY_RANGE[1], JSON.stringify(l));
  }
  assert.ok(
    levels.some((l) => prone.has(l.workload) && l.memory > MEMORY_RANGE[1]),
    'an OOM-prone workload jumps above the range',
  );
});
