import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayContainer, replayTrace, DEFAULT_REPLAY_OPTIONS } from '../../src/replay/replay-engine.ts';
import { forwardWindowMax, memoryNeeds, ruleOracleStrategy } from '../../src/replay/rule-oracle.ts';
import { oracleStrategy } from '../../src/replay/oracle.ts';
import { summarize } from '../../src/replay/quality-tally.ts';
import { DEFAULT_UPDATE_RULES } from '../../src/replay/update-rules.ts';
import { generateWorkload, EVALUATION_SUITE } from '../../src/replay/workload/generator.ts';
import { series } from './helpers.ts';

const MiB = 1024 ** 2;

test('forwardWindowMax: the largest value in [t_i, t_i + window)', () => {
  const times = Float64Array.from([0, 60, 120, 180, 240]);
  const values = Float64Array.from([1, 5, 2, 4, 3]);
  assert.deepEqual([...forwardWindowMax(times, values, 5, 120_000)], [5, 5, 4, 4, 3]);
});

test('memoryNeeds: a level held for the pressure window needs a limit that keeps it under the line', () => {
  // 1-minute samples, guard 90% for 2 min: 800 then 900 MiB hold 800 MiB (800 / 0.9 < 900: need 900);
  // 880 then 890 MiB hold 880 MiB: need 880 / 0.9 = 977.8 MiB, more than the peak.
  const s = series('a', [0, 0, 0, 0], [800 * MiB, 900 * MiB, 880 * MiB, 890 * MiB]);
  const needs = memoryNeeds(s, DEFAULT_UPDATE_RULES);
  assert.equal(needs[0], 800 * MiB);
  assert.equal(needs[1], 900 * MiB);
  assert.equal(needs[3], Math.floor((880 * MiB) / 0.9) + 1);
});

test('the rule-obeying oracle climbs to a coming need in x2 steps, one per cooldown: no shortfall', () => {
  // 100m for 60 minutes, then 1,600m for 30 minutes; cooldown 15 min.
  const cpu = [...Array<number>(60).fill(0.1), ...Array<number>(30).fill(1.6)];
  const s = series('a', cpu, []);
  const tally = replayContainer(s, ruleOracleStrategy(), { ...DEFAULT_REPLAY_OPTIONS, initialRequest: { cpu: 100, memory: 1024 ** 3 } });
  assert.ok(tally.cpuShortfallSum < 0.01); // float32 CPU: 1.6 cores is 1,600.00002m
  // 100m until 1 min, then 200m (1,600 / 2^3: 60 min is in the 4th cooldown ahead), 400m at 16 min,
  // 800m at 31 min, 1,600m at 46 min.
  assert.equal(tally.changes, 4);
  // The exact oracle would have jumped: it has less slack.
  const exact = replayContainer(s, oracleStrategy(), { ...DEFAULT_REPLAY_OPTIONS, initialRequest: { cpu: 100, memory: 1024 ** 3 } });
  assert.ok(exact.cpuSlackSum < tally.cpuSlackSum);
});

test('on the generated suite it is hardly ever short of CPU, killed at most once per container (a first sample past one x2 step from the initial request), and has more slack than the exact oracle', () => {
  const trace = generateWorkload({ ...EVALUATION_SUITE, perArchetype: 1, days: 3 });
  const rules = summarize('oracle-rules', replayTrace(trace, ruleOracleStrategy()).containers);
  const exact = summarize('oracle', replayTrace(trace, oracleStrategy()).containers);
  assert.ok((rules.cpu.shortfallPct ?? 1) < 0.05, `shortfall ${rules.cpu.shortfallPct}`);
  assert.ok((rules.memory.slackPct ?? 0) > (exact.memory.slackPct ?? 0));
  assert.ok((rules.cpu.slackPct ?? 0) > (exact.cpu.slackPct ?? 0));
  assert.ok(rules.memory.ooms <= trace.containers.length, `OOM kills ${rules.memory.ooms}`);
});
