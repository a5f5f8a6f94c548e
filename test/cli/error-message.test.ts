import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorChainMessage } from '../../src/cli/error-message.ts';

test('the error line shows the whole cause chain, first lines only, without repeating a message', () => {
  const api = new Error('HTTP-Code: 404\nMessage: Unknown API Status Code!\nBody: {...}');
  const create = new Error('creating Secret tailor/tailor-webhook-ca: notFound (404): namespaces "tailor" not found', { cause: api });
  const start = new Error('a server component failed to start', { cause: create });
  assert.equal(errorChainMessage(start), 'a server component failed to start: creating Secret tailor/tailor-webhook-ca: notFound (404): namespaces "tailor" not found: HTTP-Code: 404');
  // A wrapper that already quotes its cause does not repeat it.
  const inner = new Error('leak needs 2 values');
  assert.equal(errorChainMessage(new Error(`scenario x.yaml: ${inner.message}`, { cause: inner })), 'scenario x.yaml: leak needs 2 values');
  assert.equal(errorChainMessage(new AggregateError([new Error('connect ECONNREFUSED 127.0.0.1:9')], 'fetch failed')), 'fetch failed [connect ECONNREFUSED 127.0.0.1:9]');
  assert.equal(errorChainMessage('plain'), 'plain');
});
