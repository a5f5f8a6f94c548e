import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configuredStrategy } from '../../src/recommender/configured-strategy.ts';
import { resolveRunConfig } from '../../src/controller/run-config.ts';
import { createStrategyRegistry } from '../../src/model/builtin-strategies.ts';
import type { Strategy } from '../../src/model/types.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const MIB = 1024 ** 2;
const env = (extra: Record<string, string> = {}) => ({ TAILOR_PROMETHEUS_URL: 'http://prometheus:9090/', ...extra });

/**
 * The memory target after 60 h of a steady 500 MiB working set with one 600 MiB minute at 30:30.
 * The follow rule (the last hour's peak) is trusted after 2 days of checks without a miss; a check
 * misses when a sample passes the rule's limit (560 MiB) before the updater's pressure guard would
 * have raised it. With the guard at 90% for 2 min (the default) 500 MiB is below the line, so the
 * spike is a miss and the 7-day peak (672 MiB) stays; with the line at 80% for 10 min the guard has
 * raised the limit by 30:10, so there is no miss and the follow rule brings the target to 560 MiB.
 */
function memoryTarget(strategy: Strategy): number {
  const model = strategy.newModel();
  for (let i = 0; i <= 60 * 60; i++) {
    model.addCpuSample(0.2, i * MIN);
    model.addMemorySample(i === 30 * 60 + 30 ? 600 * MIB : 500 * MIB, i * MIN);
  }
  return model.estimate(60 * HOUR)!.target.memory / MIB;
}

test('vpa models no updater; the tailor strategies model the updater with the options the operator set', () => {
  assert.equal(configuredStrategy(resolveRunConfig({}, env({ TAILOR_RECOMMENDER_STRATEGY: 'vpa' })).config), undefined);
  assert.equal(configuredStrategy(resolveRunConfig({}, env()).config)?.name, 'tailor-low-churn');
  const { config } = resolveRunConfig(
    {},
    env({ TAILOR_RECOMMENDER_STRATEGY: 'tailor', TAILOR_MEMORY_PRESSURE_RATIO: '0.8', TAILOR_MEMORY_PRESSURE_WINDOW: '10m' }),
  );
  assert.equal(Math.round(memoryTarget(configuredStrategy(config)!)), 560, "the operator's pressure guard");
  assert.equal(Math.round(memoryTarget(createStrategyRegistry().get('tailor'))), 672, 'the default one');
});
