import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeAmount } from '../../src/policy/adjustments.ts';

test('amounts in messages read like quantities: whole units exact, odd bytes as rounded MiB', () => {
  assert.equal(describeAmount('cpu', 250), '250m');
  assert.equal(describeAmount('memory', 512 * 1024 * 1024), '512Mi');
  assert.equal(describeAmount('memory', 2 * 1024 ** 3), '2Gi');
  // 507070005 / 1048576 = 483.57... MiB
  assert.equal(describeAmount('memory', 507070005), '~483.6Mi');
  assert.equal(describeAmount('memory', 1000), '1000');
});
