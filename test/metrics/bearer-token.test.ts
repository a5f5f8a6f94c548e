import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BearerTokenFile, type TokenFileSystem } from '../../src/metrics/bearer-token.ts';

test('the token file is re-read only when it changes', () => {
  let content = 'one\n';
  let mtimeMs = 1;
  let reads = 0;
  const fs: TokenFileSystem = { stat: () => ({ mtimeMs, size: content.length }), read: () => (reads++, content) };
  const token = new BearerTokenFile('/t', fs);
  assert.equal(token.current(), 'one');
  assert.equal(token.current(), 'one');
  assert.equal(reads, 1);
  content = 'two';
  mtimeMs = 2;
  assert.equal(token.current(), 'two');
  assert.equal(reads, 2);
});
