import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { backoffDelay, retryConflicts, withRetry } from '../../src/kube/retry.ts';
import { classifyApiError } from '../../src/kube/errors.ts';
import { startSim } from 'kube-sim/test/apiserver/sim-fixture';

const status = (code: number, body: object = {}, headers: Record<string, string> = {}) => new k8s.ApiException(code, 'x', JSON.stringify(body), headers);

function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

test('backoff: retry n waits between d/2 and d with d = base x 2^(n-1), capped; Retry-After is a floor', () => {
  const e = classifyApiError(status(503));
  assert.equal(backoffDelay(1, e, 0), 100);
  assert.equal(backoffDelay(1, e, 0.999999), 200);
  assert.equal(backoffDelay(3, e, 0), 400);
  assert.equal(backoffDelay(3, e, 0.5), 600);
  assert.equal(backoffDelay(10, e, 0), 5000, 'capped at 10 s, half of it at the lowest draw');
  const throttled = classifyApiError(status(429, {}, { 'retry-after': '2' }));
  assert.equal(backoffDelay(1, throttled, 0.5), 2000);
});

test('transient errors are retried with growing waits until success', async () => {
  const { waits, sleep } = recordingSleep();
  const answers = [status(500), status(429, {}, { 'retry-after': '1' }), status(503)];
  let calls = 0;
  const result = await withRetry(
    async () => {
      calls++;
      const next = answers.shift();
      if (next) throw next;
      return 'ok';
    },
    { sleep, random: () => 0 },
  );
  assert.equal(result, 'ok');
  assert.equal(calls, 4);
  assert.deepEqual(waits, [100, 1000, 400]);
});

test('non-retryable errors are thrown at once, unchanged; attempts run out with the last error', async () => {
  const { waits, sleep } = recordingSleep();
  const notFound = status(404, { reason: 'NotFound' });
  await assert.rejects(
    withRetry(async () => Promise.reject(notFound), { sleep }),
    (err) => err === notFound,
  );
  assert.deepEqual(waits, []);

  let calls = 0;
  await assert.rejects(
    withRetry(async () => Promise.reject(status(500, { message: `try ${++calls}` })), { sleep, attempts: 3, random: () => 0 }),
    (err: k8s.ApiException<string>) => err.body.includes('try 3'),
  );
  assert.deepEqual(waits, [100, 200]);
});

test('what p-retry would judge itself is judged by the classification: a network TypeError is retried, a thrown non-Error comes back unchanged', async () => {
  const { waits, sleep } = recordingSleep();
  const refused = new TypeError('connect failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
  let calls = 0;
  assert.equal(await withRetry(async () => (++calls < 2 ? Promise.reject(refused) : 'ok'), { sleep, random: () => 0 }), 'ok');
  assert.deepEqual(waits, [100]);
  await assert.rejects(
    withRetry(async () => Promise.reject('plain text'), { sleep }),
    (err) => err === 'plain text',
  );
  const bug = new TypeError('x is undefined');
  await assert.rejects(
    withRetry(async () => Promise.reject(bug), { sleep }),
    (err) => err === bug,
  );
  assert.deepEqual(waits, [100], 'neither is retried');
});

test('conflicts are retried only when asked (the function re-reads)', async () => {
  const { sleep } = recordingSleep();
  const conflict = status(409, { reason: 'Conflict' });
  await assert.rejects(withRetry(async () => Promise.reject(conflict), { sleep }));
  let calls = 0;
  const value = await withRetry(async () => (++calls < 3 ? Promise.reject(conflict) : calls), { sleep, retryOn: retryConflicts });
  assert.equal(value, 3);
});

test('an aborted signal stops the retries', async () => {
  const controller = new AbortController();
  let calls = 0;
  await assert.rejects(
    withRetry(
      async () => {
        calls++;
        controller.abort(new Error('shutting down'));
        throw status(500);
      },
      { signal: controller.signal },
    ),
  );
  assert.equal(calls, 1);
});

test('against kube-sim: two injected 429s with Retry-After 1 are waited out, then the read succeeds', async (t) => {
  const sim = await startSim();
  t.after(() => sim.close());
  const api = sim.kc.makeApiClient(k8s.CoreV1Api);
  sim.server.addFault({ resources: ['namespaces'], verbs: ['get'], error: 429, retryAfterSeconds: 1, times: 2 });
  const { waits, sleep } = recordingSleep();
  const ns = await withRetry(() => api.readNamespace({ name: 'default' }), { sleep });
  assert.equal(ns.metadata?.name, 'default');
  assert.deepEqual(waits, [1000, 1000]);
});
