// Upstream's rounding of the VPA status (model.RoundUpToScale): every figure up to a multiple of
// the factor; 1 leaves the estimate alone (the vpa strategy's parity with upstream's default).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roundEstimate, roundUpToMultiple } from '../../src/recommender/status-rounding.ts';

const MiB = 2 ** 20;

test('rounds up to a multiple, never down; 0 and a factor of 1 stay as they are', () => {
  assert.equal(roundUpToMultiple(235_358_127, MiB), 225 * MiB);
  assert.equal(roundUpToMultiple(225 * MiB, MiB), 225 * MiB);
  assert.equal(roundUpToMultiple(225 * MiB + 1, MiB), 226 * MiB);
  assert.equal(roundUpToMultiple(587, 10), 590);
  assert.equal(roundUpToMultiple(0, MiB), 0);
  assert.equal(roundUpToMultiple(235_358_127, 1), 235_358_127);
});

test('target and both bounds are rounded up; factors of 1 return the very estimate', () => {
  const e = { target: { cpu: 587, memory: 235_358_127 }, lowerBound: { cpu: 401, memory: 200_000_001 }, upperBound: { cpu: 999, memory: 300_000_000 } };
  assert.deepEqual(roundEstimate(e, { cpuMillicores: 10, memoryBytes: MiB }), {
    target: { cpu: 590, memory: 225 * MiB },
    lowerBound: { cpu: 410, memory: 191 * MiB },
    upperBound: { cpu: 1000, memory: 287 * MiB },
  });
  assert.equal(roundEstimate(e, { cpuMillicores: 1, memoryBytes: 1 }), e);
  assert.equal(roundEstimate(e, undefined), e);
});
