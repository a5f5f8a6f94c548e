import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateWorkload, EVALUATION_SUITE } from '../../../src/replay/workload/generator.ts';
import { replayTrace } from '../../../src/replay/replay-engine.ts';
import { summarize } from '../../../src/replay/quality-tally.ts';
import { createReplayStrategy } from '../../../src/replay/replay-strategies.ts';
import { LOW_CHURN_OPTIONS, LOW_CHURN_STRATEGY_NAME, tailorLowChurnStrategy } from '../../../src/model/tailor/low-churn.ts';
import { createStrategyRegistry } from '../../../src/model/builtin-strategies.ts';

test('tailor-low-churn is a built-in strategy with its own name and description', () => {
  const strategy = createStrategyRegistry().get(LOW_CHURN_STRATEGY_NAME);
  assert.equal(strategy.name, 'tailor-low-churn');
  assert.match(strategy.description, /2x vpa/);
  assert.notEqual(tailorLowChurnStrategy().newModel(), tailorLowChurnStrategy().newModel());
  assert.ok(Object.isFrozen(LOW_CHURN_OPTIONS));
});

test('on daily cycles, batch jobs and leaks it changes requests far less often than tailor, with less CPU slack and shortfall than vpa', () => {
  const trace = generateWorkload({ ...EVALUATION_SUITE, perArchetype: 2, days: 4, archetypes: ['diurnal', 'batch', 'memory-leak'] });
  const run = (name: string) => summarize(name, replayTrace(trace, createReplayStrategy(name)).containers);
  const vpa = run('vpa');
  const tailor = run('tailor');
  const low = run('tailor-low-churn');
  // Deterministic (seeded): vpa 64.6% CPU slack, 2.12% short, 43.2% memory slack, 8 OOM kills,
  // 1.88 changes a day; tailor 54.5 / 2.40 / 35.0 / 6 / 12.04; tailor-low-churn 61.2 / 1.82 / 37.3 / 6 / 3.71.
  assert.ok(low.changesPerDay < tailor.changesPerDay / 2, `changes a day: ${low.changesPerDay} vs tailor's ${tailor.changesPerDay}`);
  assert.ok(low.changesPerDay <= 2 * vpa.changesPerDay, `changes a day: ${low.changesPerDay} vs vpa's ${vpa.changesPerDay}`);
  assert.ok(low.cpu.slackPct! < vpa.cpu.slackPct! && low.cpu.shortfallPct! <= vpa.cpu.shortfallPct!, 'CPU: less slack, no more shortfall than vpa');
  assert.ok(low.memory.slackPct! < vpa.memory.slackPct! && low.memory.ooms <= vpa.memory.ooms, 'memory: less slack, no more OOM kills than vpa');
});
