import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aptGetCommand } from '../../src/local-prometheus/debian-package.ts';

test('apt-get runs directly as root, through sudo -n when passwordless sudo works, else not at all', () => {
  let asked = 0;
  const sudo = (works: boolean) => () => (asked++, works);
  assert.deepEqual(aptGetCommand(true, sudo(true)), ['apt-get']);
  assert.equal(asked, 0, 'root never asks sudo');
  assert.deepEqual(aptGetCommand(false, sudo(true)), ['sudo', '-n', 'apt-get']);
  assert.equal(aptGetCommand(false, sudo(false)), undefined);
});
