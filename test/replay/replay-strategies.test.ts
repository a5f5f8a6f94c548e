import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReplayStrategy, replayStrategyNames } from '../../src/replay/replay-strategies.ts';
import { StrategyRegistryError } from '../../src/model/strategy-registry.ts';
import { isClairvoyant } from '../../src/replay/replay-strategy.ts';

test('the replay knows the built-in strategies and its own baselines, each once and each call fresh', () => {
  assert.deepEqual(replayStrategyNames(), ['vpa', 'tailor', 'tailor-low-churn', 'krr', 'oracle', 'oracle-rules']);
  for (const name of replayStrategyNames()) assert.equal(createReplayStrategy(name).name, name);
  assert.notEqual(createReplayStrategy('tailor'), createReplayStrategy('tailor'));
  assert.ok(isClairvoyant(createReplayStrategy('oracle')));
  assert.ok(!isClairvoyant(createReplayStrategy('vpa')));
  assert.throws(() => createReplayStrategy('nope'), StrategyRegistryError);
});
