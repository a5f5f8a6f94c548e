import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseChaosArgs, verdictLine } from './verdict.ts';

test('--seed and --minutes are read as the issue names them; --out is optional', () => {
  assert.deepEqual(parseChaosArgs(['--seed', '7', '--minutes', '10']), { seed: 7, minutes: 10, out: undefined, variant: undefined });
  assert.deepEqual(parseChaosArgs(['--seed', '0', '--minutes', '45', '--out', '/tmp/x', '--variant', 'bounds'], ['bounds']), {
    seed: 0,
    minutes: 45,
    out: '/tmp/x',
    variant: 'bounds',
  });
});

test('bad arguments: every problem in one message with the usage, no stack', () => {
  assert.throws(
    () => parseChaosArgs(['--seed', 'x', '--minutes', '90']),
    /--seed must be a whole number ≥ 0 \(got x\); --minutes must be a whole number from 6 to 45 \(got 90\); usage: npm run test:chaos/,
  );
  assert.throws(() => parseChaosArgs([]), /--seed .*got nothing.*--minutes .*got nothing/);
  assert.throws(() => parseChaosArgs(['--seed', '1', '--minutes', '5']), /from 6 to 45 \(got 5\)/);
  assert.throws(() => parseChaosArgs(['--seeds', '1']), /Unknown option '--seeds'.*usage/);
  assert.throws(
    () => parseChaosArgs(['--seed', '1', '--minutes', '6', '--variant', 'pdb'], ['bounds', 'one-leader']),
    /--variant must be one of bounds, one-leader \(got pdb\)/,
  );
});

test('the verdict is one line in the issue’s words', () => {
  assert.equal(
    verdictLine({ seed: 3, minutes: 45 }, { resizes: 312, evictions: 31, faults: 40, violations: 0 }),
    'chaos: seed 3, 45 min: 312 resizes, 31 evictions, 40 faults, 0 violations',
  );
});
