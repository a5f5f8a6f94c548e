/** What the migration lanes call a loss across a switch (migration-support.ts): a target moved beyond two buckets, a checkpoint not continued. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { switchLosses, TOLERANCE, type CheckpointView, type SwitchState } from './migration-support.ts';

const cp = (name: string, samples: number): CheckpointView => ({ name, samples, memoryWeight: 0, lastUpdateTime: '', managers: [] });
const before: SwitchState = {
  targets: { 'spiky/app': { cpu: 0.35, memory: 262144000, upperCpu: 1, upperMemory: 1 } },
  checkpoints: [cp('spiky-app', 10)],
};

test('kept: the same target within two buckets and the checkpoint continued', () => {
  assert.equal(TOLERANCE, 1.1025);
  const after: SwitchState = {
    targets: { 'spiky/app': { cpu: 0.35 * 1.1, memory: 262144000, upperCpu: 2, upperMemory: 2 } },
    checkpoints: [cp('spiky-app', 11)],
  };
  assert.deepEqual(switchLosses(before, after, 'Tailor'), []);
});

test('lost: a target reset to the minimum, a target gone, a checkpoint with fewer samples or none', () => {
  const reset: SwitchState = { targets: { 'spiky/app': { cpu: 0.025, memory: 262144000, upperCpu: 1, upperMemory: 1 } }, checkpoints: [cp('spiky-app', 3)] };
  assert.deepEqual(switchLosses(before, reset, 'Tailor'), [
    'spiky/app cpu: 0.35 → 0.025 (x0.071, allowed x0.907-x1.1025)',
    'checkpoint spiky-app: Tailor holds 3 samples, 10 were written before',
  ]);
  assert.deepEqual(switchLosses(before, { targets: {}, checkpoints: [] }, 'upstream'), [
    'spiky/app: no recommendation after the switch',
    'checkpoint spiky-app: upstream holds none, 10 samples were written before',
  ]);
});
