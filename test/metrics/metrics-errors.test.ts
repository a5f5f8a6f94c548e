import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BadQueryError,
  PrometheusServerError,
  PrometheusTimeoutError,
  PrometheusUnreachableError,
  wrapPrometheusError,
} from '../../src/metrics/metrics-errors.ts';

const E = 'http://prom:9090';

test('prometheus-query failures map to typed errors, cause kept', () => {
  const tooMany = { status: 'error', errorType: 'http_error', httpStatus: 400, error: 'exceeded maximum resolution of 11,000 points per timeseries' };
  const bad = wrapPrometheusError(tooMany, 'q', E);
  assert.ok(bad instanceof BadQueryError);
  assert.equal(bad.cause, tooMany);
  assert.equal(bad.retryable, false);
  assert.match(bad.message, /11,000 points/);

  assert.ok(
    wrapPrometheusError({ status: 'error', errorType: 'timeout_error', error: 'timeout of 30000ms exceeded', code: 'ECONNABORTED' }, 'q', E) instanceof
      PrometheusTimeoutError,
  );
  assert.ok(
    wrapPrometheusError(
      { status: 'error', errorType: 'http_error', httpStatus: 503, error: 'query timed out', prometheus: { errorType: 'timeout' } },
      'q',
      E,
    ) instanceof PrometheusTimeoutError,
  );
  const down = wrapPrometheusError({ status: 'error', errorType: 'network_error', error: 'connect ECONNREFUSED', code: 'ECONNREFUSED' }, 'q', E);
  assert.ok(down instanceof PrometheusUnreachableError);
  assert.equal(down.retryable, true);
  // The code is said once: node's message already holds it.
  assert.equal(down.message, 'Prometheus at http://prom:9090 is unreachable: connect ECONNREFUSED');
  assert.equal(
    wrapPrometheusError({ status: 'error', errorType: 'network_error', error: 'socket hang up', code: 'ECONNRESET' }, 'q', E).message,
    'Prometheus at http://prom:9090 is unreachable: socket hang up (ECONNRESET)',
  );
  const denied = wrapPrometheusError({ status: 'error', errorType: 'http_error', httpStatus: 403, error: 'forbidden' }, 'q', E);
  assert.ok(denied instanceof PrometheusServerError);
  assert.equal(denied.retryable, false);
  const inner = { status: 'error', errorType: 'client_error', error: 'unexpected client error' };
  assert.ok(wrapPrometheusError({ status: 'error', errorType: 'network_error', original: inner }, 'q', E) instanceof PrometheusServerError);
});
