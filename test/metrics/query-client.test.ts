/**
 * The HTTP edge against a real HTTP server on 127.0.0.1 that plays Prometheus' failure modes:
 * typed errors with the cause kept, retries on 5xx only, timeouts, warnings, auth and headers.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, silentLogger } from '../../src/observability/logger.ts';
import { PrometheusQueryClient } from '../../src/metrics/query-client.ts';
import { BadQueryError, PrometheusServerError, PrometheusTimeoutError, PrometheusUnreachableError } from '../../src/metrics/metrics-errors.ts';
import { freePort } from '../support/free-port.ts';

interface Seen {
  method: string;
  query: string;
  headers: http.IncomingHttpHeaders;
}

let server: http.Server;
let url: string;
let dir: string;
const seen: Seen[] = [];
let flaky = 0;

const ok = (extra: object = {}) =>
  JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [{ metric: { a: '1' }, value: [1700000000, '2.5'] }] }, ...extra });

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tailor-qc-'));
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const params = new URLSearchParams(req.method === 'POST' ? body : (req.url ?? '').split('?')[1]);
      const query = params.get('query') ?? '';
      seen.push({ method: req.method ?? '', query, headers: req.headers });
      res.setHeader('content-type', 'application/json');
      if (query === 'bad(') {
        res.statusCode = 400;
        res.end(JSON.stringify({ status: 'error', errorType: 'bad_data', error: 'parse error at char 5' }));
      } else if (query === 'flaky') {
        if (flaky++ < 2) {
          res.statusCode = 503;
          res.end(JSON.stringify({ status: 'error', errorType: 'unavailable', error: 'overloaded' }));
        } else res.end(ok());
      } else if (query === 'down') {
        res.statusCode = 500;
        res.end(JSON.stringify({ status: 'error', errorType: 'internal', error: 'boom' }));
      } else if (query === 'slow') {
        setTimeout(() => res.end(ok()), 2_000);
      } else if (query === 'garbage') {
        res.end('<html>not json</html>');
      } else if (query === 'html-404' || query === 'html-200' || query === 'html-502') {
        res.statusCode = Number(query.slice(5));
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end('<html><body>Grafana</body></html>');
      } else if (query === 'no-tenant' || query === 'text-404') {
        // Cortex without X-Scope-OrgID; Go's mux at a wrong path.
        res.statusCode = query === 'no-tenant' ? 401 : 404;
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        res.end(query === 'no-tenant' ? 'no org id\n' : '404 page not found\n');
      } else if (query === 'matrix' || (query === 'matrix-flaky' && flaky++ >= 1)) {
        // Written in small pieces, as a large answer arrives.
        const text = matrix();
        for (let i = 0; i < text.length; i += 7) res.write(text.slice(i, i + 7));
        res.end();
      } else if (query === 'matrix-flaky') {
        res.write(matrix().slice(0, 60)); // half an answer, then the connection drops
        res.destroy();
      } else if (query === 'warn') {
        res.end(ok({ warnings: ['partial response: store 2 unreachable'] }));
      } else res.end(ok());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const matrixSeries = [0, 1, 2].map((i) => ({ metric: { namespace: 'a', pod: `p${i}`, container: 'c' }, values: [[1700000000, String(i)]] }));
function matrix(): string {
  return JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: matrixSeries }, warnings: ['partial'] });
}

const fast = { retryMinDelayMs: 1, retryMaxDelayMs: 5 };

test('a rejected query is a BadQueryError with the server message, not retried', async () => {
  const client = new PrometheusQueryClient({ url, ...fast }, silentLogger());
  const err = await client.instant('bad(', 0).catch((e: unknown) => e);
  assert.ok(err instanceof BadQueryError);
  assert.match(err.message, /parse error at char 5/);
  assert.equal((err.cause as { httpStatus: number }).httpStatus, 400);
  assert.equal(client.stats.queries, 1);
});

test('5xx answers are retried with backoff, then succeed', async () => {
  flaky = 0;
  const client = new PrometheusQueryClient({ url, retries: 3, ...fast }, silentLogger());
  const answer = await client.instant('flaky', 0);
  assert.equal(answer.result.result.length, 1);
  assert.equal(client.stats.queries, 3);
  assert.equal(client.stats.retries, 2);
});

test('a persistent 500 ends as a PrometheusServerError after the retries', async () => {
  const client = new PrometheusQueryClient({ url, retries: 2, ...fast }, silentLogger());
  const err = await client.instant('down', 0).catch((e: unknown) => e);
  assert.ok(err instanceof PrometheusServerError);
  assert.equal(err.httpStatus, 500);
  assert.equal(client.stats.queries, 3);
  assert.equal(client.stats.failures, 1);
});

test('a slow server gives a PrometheusTimeoutError', async () => {
  const client = new PrometheusQueryClient({ url, timeoutMs: 200, retries: 0 }, silentLogger());
  const err = await client.instant('slow', 0).catch((e: unknown) => e);
  assert.ok(err instanceof PrometheusTimeoutError, String(err));
});

test('a closed port gives a PrometheusUnreachableError', async () => {
  const client = new PrometheusQueryClient({ url: `http://127.0.0.1:${await freePort()}`, retries: 1, ...fast }, silentLogger());
  const err = await client.instant('up', 0).catch((e: unknown) => e);
  assert.ok(err instanceof PrometheusUnreachableError, String(err));
  assert.match(err.message, /ECONNREFUSED/);
  assert.equal(client.stats.queries, 2);
});

test('an unreadable body is a PrometheusServerError', async () => {
  const client = new PrometheusQueryClient({ url, retries: 0 }, silentLogger());
  const err = await client.instant('garbage', 0).catch((e: unknown) => e);
  assert.ok(err instanceof PrometheusServerError, String(err));
});

test('an HTML page (a UI or a proxy instead of the API) names the status and content type; 4xx and 200 are not retried, 5xx are', async () => {
  for (const [query, status, queries] of [
    ['html-404', 404, 1],
    ['html-200', 200, 1],
    ['html-502', 502, 3],
  ] as const) {
    const client = new PrometheusQueryClient({ url, retries: 2, ...fast }, silentLogger());
    const err = await client.instant(query, 0).catch((e: unknown) => e);
    assert.ok(err instanceof PrometheusServerError, String(err));
    assert.match(err.message, new RegExp(`answered HTTP ${status} \\(text/html\\), not the Prometheus API`));
    if (status < 500) assert.match(err.message, /check --prometheus-url/);
    assert.equal(err.httpStatus, status);
    assert.equal(client.stats.queries, queries, query);
  }
});

test('a plain-text refusal (401 from Cortex without a tenant) says so in the server’s words, not "check --prometheus-url"; not retried', async () => {
  const client = new PrometheusQueryClient({ url, retries: 2, ...fast }, silentLogger());
  for (const kind of ['instant', 'range'] as const) {
    const err = await (kind === 'instant' ? client.instant('no-tenant', 0) : client.range('no-tenant', 60_000, 120_000, 60_000)).catch((e: unknown) => e);
    assert.ok(err instanceof PrometheusServerError, String(err));
    assert.equal(err.httpStatus, 401);
    assert.match(err.message, /refused the request: HTTP 401 \(text\/plain\) "no org id": check the credentials .* or the tenant header \(X-Scope-OrgID/, kind);
    assert.doesNotMatch(err.message, /not the Prometheus API|--prometheus-url/, kind);
  }
  assert.equal(client.stats.queries, 2, 'one attempt each: asking again gets the same refusal');
  const wrongPath = await client.instant('text-404', 0).catch((e: unknown) => e);
  assert.match(String(wrongPath), /answered HTTP 404 \(text\/plain\) "404 page not found", not the Prometheus API: check --prometheus-url/);
});

test('a URL that is not http(s) is refused when the client is made, before any request', () => {
  for (const bad of ['not-a-url', 'ftp://prometheus:9090', '']) {
    assert.throws(() => new PrometheusQueryClient({ url: bad }, silentLogger()), /invalid Prometheus URL/, bad);
  }
});

test('a retry is one short line at info level; the stack only at debug', async () => {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) });
  for (const level of ['info', 'debug'] as const) {
    lines.length = 0;
    const client = new PrometheusQueryClient({ url: `http://127.0.0.1:${await freePort()}`, retries: 1, ...fast }, createLogger({ level, destination: sink }));
    await client.instant('up', 0).catch(() => undefined);
    const retries = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'Prometheus query failed, retrying');
    assert.equal(retries.length, 1, level);
    if (level === 'info') {
      assert.doesNotMatch(lines.join(''), /"stack"/);
      assert.match(String(retries[0]!.error), /is unreachable: connect ECONNREFUSED/);
    } else assert.match(lines.join(''), /"stack"/);
  }
});

test('server warnings come back with the answer and bytes are counted', async () => {
  const client = new PrometheusQueryClient({ url }, silentLogger());
  const answer = await client.instant('warn', 0);
  assert.deepEqual(answer.warnings, ['partial response: store 2 unreachable']);
  assert.equal(client.stats.bytes, Buffer.byteLength(ok({ warnings: ['partial response: store 2 unreachable'] })));
});

test('auth, tenant headers and POST for long queries', async () => {
  const tokenFile = join(dir, 'token');
  await writeFile(tokenFile, 'first-token\n');
  const client = new PrometheusQueryClient({ url, bearerTokenFile: tokenFile, headers: { 'X-Scope-OrgID': 'team-a' }, postAboveChars: 20 }, silentLogger());
  seen.length = 0;
  await client.instant('up', 0);
  await writeFile(tokenFile, 'second-token-rotated\n');
  await client.instant(`sum(up{job="${'x'.repeat(30)}"})`, 0);
  assert.equal(seen[0]!.method, 'GET');
  assert.equal(seen[0]!.headers.authorization, 'Bearer first-token');
  assert.equal(seen[0]!.headers['x-scope-orgid'], 'team-a');
  assert.equal(seen[1]!.method, 'POST');
  assert.equal(seen[1]!.headers.authorization, 'Bearer second-token-rotated');

  const basic = new PrometheusQueryClient({ url, basicAuth: { username: 'u', password: 'p' } }, silentLogger());
  await basic.instant('up', 0);
  assert.equal(seen[2]!.headers.authorization, `Basic ${Buffer.from('u:p').toString('base64')}`);
});

test('a streamed range query hands over each series once, with the warnings and the bytes counted', async () => {
  const client = new PrometheusQueryClient({ url }, silentLogger());
  const got: unknown[] = [];
  const answer = await client.rangeStreamed('matrix', 1_700_000_000_000, 1_700_000_060_000, 60_000, () => (item) => got.push(item));
  assert.deepEqual(got, matrixSeries);
  assert.deepEqual(answer.warnings, ['partial']);
  assert.equal(client.stats.bytes, Buffer.byteLength(matrix()));
});

test('a streamed range query: an error answer keeps the server words; a cut answer is retried and its attempt started over', async () => {
  const client = new PrometheusQueryClient({ url, retries: 2, ...fast }, silentLogger());
  const err = await client.rangeStreamed('bad(', 1_700_000_000_000, 1_700_000_060_000, 60_000, () => () => {}).catch((e: unknown) => e);
  assert.ok(err instanceof BadQueryError, String(err));
  assert.match(err.message, /parse error at char 5/);

  flaky = 0;
  const attempts: unknown[][] = [];
  await client.rangeStreamed('matrix-flaky', 1_700_000_000_000, 1_700_000_060_000, 60_000, () => {
    const items: unknown[] = [];
    attempts.push(items);
    return (item) => items.push(item);
  });
  assert.equal(attempts.length, 2);
  assert.deepEqual(attempts.at(-1), matrixSeries);
});
