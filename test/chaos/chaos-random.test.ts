import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chaosRandom } from './chaos-random.ts';
import { FAULT_KINDS, faultSchedule } from './fault-schedule.ts';

test('the first draws differ from seed to seed (the bare generator starts at 0.99999 for every small seed)', () => {
  const firsts = [1, 2, 3, 4, 5, 6, 7, 8].map((s) => chaosRandom(s).uniform());
  assert.ok(Math.min(...firsts) < 0.5 && Math.max(...firsts) > 0.5, firsts.join(' '));
});

test('in short runs every kind comes first for some seed (api-errors never did)', () => {
  const first = new Set<string>();
  for (let seed = 1; seed <= 300; seed++) first.add(faultSchedule(seed, 9)[0]!.kind);
  assert.deepEqual([...first].sort(), [...FAULT_KINDS].sort());
});
