import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorChainMessage } from '../../src/cli/error-message.ts';
import { readFailure } from '../../src/cli/file-errors.ts';

test('the error line shows the whole cause chain, first lines only, without repeating a message', () => {
  const api = new Error('HTTP-Code: 404\nMessage: Unknown API Status Code!\nBody: {...}');
  const create = new Error('creating Secret tailor/tailor-webhook-ca: notFound (404): namespaces "tailor" not found', { cause: api });
  const start = new Error('a server component failed to start', { cause: create });
  assert.equal(
    errorChainMessage(start),
    'a server component failed to start: creating Secret tailor/tailor-webhook-ca: notFound (404): namespaces "tailor" not found: HTTP-Code: 404',
  );
  // A wrapper that already quotes its cause does not repeat it.
  const inner = new Error('leak needs 2 values');
  assert.equal(errorChainMessage(new Error(`scenario x.yaml: ${inner.message}`, { cause: inner })), 'scenario x.yaml: leak needs 2 values');
  assert.equal(
    errorChainMessage(new AggregateError([new Error('connect ECONNREFUSED 127.0.0.1:9')], 'fetch failed')),
    'fetch failed [connect ECONNREFUSED 127.0.0.1:9]',
  );
  assert.equal(errorChainMessage('plain'), 'plain');
});

test("a cause that is not an Error (a library's plain failure object) is summarised by its message, never serialised with its stack", () => {
  // As prometheus-query rejects: a plain object around axios' error, whose stack and socket state must not reach the user.
  const axios = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED', config: { socket: { _sessionCache: {} } } });
  const raw = { status: 'error', errorType: 'network_error', error: 'connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED', original: axios };
  const wrapped = new Error('Prometheus at http://127.0.0.1:1 is unreachable: connect ECONNREFUSED 127.0.0.1:1', { cause: raw });
  assert.equal(errorChainMessage(wrapped), 'Prometheus at http://127.0.0.1:1 is unreachable: connect ECONNREFUSED 127.0.0.1:1');
  // A plain object with something new to say adds that, and nothing else.
  assert.equal(errorChainMessage(new Error('query failed', { cause: { error: 'bad_data', stack: 'Error: at x' } })), 'query failed: bad_data');
  assert.equal(errorChainMessage(new Error('query failed', { cause: { message: 'too many points', stack: 'Error: at x' } })), 'query failed: too many points');
  // An object with no message at all adds nothing (its JSON would be noise).
  assert.equal(errorChainMessage(new Error('query failed', { cause: { socket: { _sessionCache: {} }, stack: 'Error: at x' } })), 'query failed');
});

test('a file error says its system error in words once: no raw ENOENT repeating it', () => {
  const enoent = Object.assign(new Error("ENOENT: no such file or directory, open 'shop.yaml'"), { code: 'ENOENT' });
  assert.equal(errorChainMessage(readFailure('shop.yaml', enoent)), 'shop.yaml: cannot read: no such file');
  // Wrapped further, the line still ends with the words.
  assert.equal(
    errorChainMessage(new Error('loading the scenario', { cause: readFailure('shop.yaml', enoent) })),
    'loading the scenario: shop.yaml: cannot read: no such file',
  );
});
