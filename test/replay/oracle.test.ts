import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayContainer, DEFAULT_REPLAY_OPTIONS } from '../../src/replay/replay-engine.ts';
import { oracleStrategy } from '../../src/replay/oracle.ts';
import { DEFAULT_UPDATE_RULES } from '../../src/replay/update-rules.ts';
import { series } from './helpers.ts';

const MB = 1_000_000;

test('the oracle sets the peak of each cooldown window exactly: no shortfall, no OOM', () => {
  // Cooldown 3 min. Windows [0,3) peak 300m / 300 MB, [3,6) peak 600m / 100 MB.
  const s = series('a', [0.1, 0.3, 0.2, 0.6, 0.1, 0.1], [100 * MB, 300 * MB, 200 * MB, 100 * MB, 50 * MB, 50 * MB]);
  const tally = replayContainer(s, oracleStrategy(), {
    ...DEFAULT_REPLAY_OPTIONS,
    rules: { ...DEFAULT_UPDATE_RULES, cooldownMs: 180_000 },
  });
  assert.equal(tally.changes, 2);
  assert.equal(tally.ooms, 0);
  assert.equal(tally.cpuShortfallSum, 0);
  // Requests 300 x 3 + 600 x 3 = 2,700m; usage 1,400m; float32 CPU allows a tiny error.
  assert.ok(Math.abs(tally.cpuRequestSum - 2700) < 1e-3);
  assert.equal(tally.memoryLimitSum, (300 * 3 + 100 * 3) * MB);
  assert.equal(tally.memorySlackSum, (200 + 0 + 100 + 0 + 50 + 50) * MB);
});
