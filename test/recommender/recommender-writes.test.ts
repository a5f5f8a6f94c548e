import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecommenderMetrics } from '../../src/recommender/recommender-metrics.ts';
import { RecommenderWriter, retryWrite } from '../../src/recommender/recommender-writes.ts';
import { classifyApiError } from '../../src/kube/errors.ts';
import { createRegistry } from '../../src/controller/controller-metrics.ts';
import { silentLogger } from '../../src/observability/logger.ts';

/** An error as client-node 1.x throws it for an HTTP answer. */
function apiError(code: number, reason: string, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`HTTP ${code}`), { code, body: JSON.stringify({ kind: 'Status', reason, message: reason }), headers });
}

function setup() {
  let now = 1_000_000;
  const sleeps: number[] = [];
  const registry = createRegistry({ defaultMetrics: false });
  const metrics = new RecommenderMetrics(registry);
  const writer = new RecommenderWriter({
    metrics,
    logger: silentLogger(),
    clock: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    random: () => 1,
  });
  const value = async (name: string, labels: string) => {
    const text = await registry.getSingleMetricAsString(name);
    // Summed over the other labels (every object x outcome series exists from the start, at 0).
    const lines = text.split('\n').filter((l) => l.startsWith(`${name}{`) && l.includes(labels));
    return lines.reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
  };
  return { writer, sleeps, value, advance: (ms: number) => (now += ms), signal: new AbortController().signal };
}

/** A write that fails with `errors` in turn, then succeeds. */
function failing(...errors: Error[]) {
  let calls = 0;
  return {
    fn: async () => {
      const err = errors[calls++];
      if (err) throw err;
    },
    calls: () => calls,
  };
}

test('retried: conflicts, 410, throttling and 5xx; not retried: 404, 422, 403', () => {
  const kinds = [409, 410, 429, 500, 503, 404, 422, 403].map((c) => [c, retryWrite(classifyApiError(apiError(c, c === 409 ? 'Conflict' : 'X')))]);
  assert.deepEqual(kinds, [
    [409, true],
    [410, true],
    [429, true],
    [500, true],
    [503, true],
    [404, false],
    [422, false],
    [403, false],
  ]);
});

test('a 409 then a 500 then success: two retries with backoff 200 ms then 400 ms (jitter at its top), counted', async () => {
  const { writer, sleeps, value, signal } = setup();
  const w = failing(apiError(409, 'Conflict'), apiError(500, 'InternalError'));
  assert.deepEqual(await writer.write('status', 'VPA a', w.fn, signal), { ok: true });
  assert.equal(w.calls(), 3);
  assert.deepEqual(sleeps, [200, 400]);
  assert.equal(await value('tailor_recommender_write_retries_total', 'reason="conflict"'), 1);
  assert.equal(await value('tailor_recommender_write_retries_total', 'reason="unavailable"'), 1);
  assert.equal(await value('tailor_recommender_writes_total', 'outcome="ok"'), 1);
});

test('429 with Retry-After 2 s: each retry waits 2 s; after 4 attempts writes pause for 2 s and are deferred', async () => {
  const { writer, sleeps, value, advance, signal } = setup();
  const throttled = () => apiError(429, 'TooManyRequests', { 'retry-after': '2' });
  const w = failing(throttled(), throttled(), throttled(), throttled());
  const result = await writer.write('checkpoint', 'checkpoint a', w.fn, signal);
  assert.deepEqual(result, { ok: false, kind: 'throttled', deferred: false });
  assert.deepEqual(sleeps, [2000, 2000, 2000]);
  const other = failing();
  assert.deepEqual(await writer.write('checkpoint', 'checkpoint b', other.fn, signal), { ok: false, kind: 'throttled', deferred: true });
  assert.equal(other.calls(), 0, 'not even tried while paused');
  assert.equal(await value('tailor_recommender_writes_total', 'outcome="deferred"'), 1);
  assert.equal(await value('tailor_recommender_writes_total', 'outcome="throttled"'), 1);
  advance(2000);
  assert.deepEqual(await writer.write('checkpoint', 'checkpoint b', other.fn, signal), { ok: true });
});

test('404 is dropped and 422 reported at once, without retries', async () => {
  const { writer, sleeps, signal } = setup();
  assert.deepEqual(await writer.write('status', 'VPA gone', failing(apiError(404, 'NotFound')).fn, signal), { ok: false, kind: 'notFound', deferred: false });
  assert.deepEqual(await writer.write('status', 'VPA bad', failing(apiError(422, 'Invalid')).fn, signal), { ok: false, kind: 'invalid', deferred: false });
  assert.deepEqual(sleeps, []);
});

test('an aborted signal (leadership lost) stops retrying', async () => {
  const { writer } = setup();
  const controller = new AbortController();
  controller.abort();
  const w = failing(apiError(500, 'InternalError'), apiError(500, 'InternalError'));
  const result = await writer.write('status', 'VPA a', w.fn, controller.signal);
  assert.equal(result.ok, false);
  assert.equal(w.calls(), 1);
});
