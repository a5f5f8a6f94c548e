import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServerVersion, serverCapabilities } from '../../src/updater/server-capabilities.ts';

test('per version: what the planner may ask of the server', () => {
  const row = (minor: number, gate = false) => {
    const c = serverCapabilities({ major: 1, minor }, gate);
    return [c.inPlaceResize, c.resizeSubresource, c.memoryLimitDecreaseNeedsRestart];
  };
  assert.deepEqual(row(26, true), [false, false, true]);
  assert.deepEqual(row(32), [false, false, true]);
  assert.deepEqual(row(32, true), [true, false, true]);
  assert.deepEqual(row(33), [true, true, true]);
  assert.deepEqual(row(34), [true, true, false]);
  assert.deepEqual(row(35), [true, true, false]);
});

test('version strings as providers write them', () => {
  assert.deepEqual(parseServerVersion({ major: '1', minor: '33+' }), { major: 1, minor: 33 });
  assert.equal(parseServerVersion({ major: '', minor: '' }), undefined);
});
