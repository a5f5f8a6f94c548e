import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { checkNodeFetchUsesWhatwgUrlAsFallbackOnly } from '../../scripts/node-fetch-native-url.mjs';

// node-fetch as client-node resolves it (the copy the bundle holds).
const clientNode = createRequire(import.meta.url).resolve('@kubernetes/client-node');
const nodeFetch = createRequire(clientNode).resolve('node-fetch');

test('the installed node-fetch uses whatwg-url only as the fallback for url.URL', () => {
  const source = readFileSync(nodeFetch, 'utf8');
  assert.match(source, /Url\.URL \|\| whatwgUrl\.URL/);
  assert.doesNotThrow(() => checkNodeFetchUsesWhatwgUrlAsFallbackOnly(source));
});

test('any other use of whatwg-url fails the build', () => {
  const fallback = "var whatwgUrl = _interopDefault(require('whatwg-url'));\nconst URL = Url.URL || whatwgUrl.URL;\n";
  assert.doesNotThrow(() => checkNodeFetchUsesWhatwgUrlAsFallbackOnly(fallback));
  assert.throws(() => checkNodeFetchUsesWhatwgUrlAsFallbackOnly(`${fallback}const parsed = whatwgUrl.parseURL(input);\n`), /other than as a fallback/);
  assert.throws(() => checkNodeFetchUsesWhatwgUrlAsFallbackOnly('const URL = Url.URL;\n'), /other than as a fallback/);
});
