import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import * as k8s from '@kubernetes/client-node';
import { classifyApiError, classificationOf, KubeApiError } from '../../src/kube/errors.ts';
import { startSim, podManifest, type SimFixture } from 'kube-sim/test/apiserver/sim-fixture';

let sim: SimFixture;
let coordination: k8s.CoordinationV1Api;
before(async () => {
  sim = await startSim();
  coordination = sim.kc.makeApiClient(k8s.CoordinationV1Api);
});
after(async () => {
  await sim?.close();
});

async function thrown(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  assert.fail('the call did not fail');
}

const lease = (name: string): k8s.V1Lease => ({ metadata: { name, namespace: 'default' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } });

test('a missing object from the real server is notFound -> drop', async () => {
  const c = classifyApiError(await thrown(() => coordination.readNamespacedLease({ name: 'nope', namespace: 'default' })));
  assert.equal(c.kind, 'notFound');
  assert.equal(c.action, 'drop');
  assert.equal(c.code, 404);
  assert.equal(c.reason, 'NotFound');
  assert.match(c.message, /nope/);
});

test('creating an existing object is alreadyExists -> drop; a stale resourceVersion is conflict -> retry', async () => {
  const created = await coordination.createNamespacedLease({ namespace: 'default', body: lease('dup') });
  const again = classifyApiError(await thrown(() => coordination.createNamespacedLease({ namespace: 'default', body: lease('dup') })));
  assert.deepEqual([again.kind, again.action, again.code, again.reason], ['alreadyExists', 'drop', 409, 'AlreadyExists']);

  await coordination.replaceNamespacedLease({ name: 'dup', namespace: 'default', body: { ...created, spec: { ...created.spec, holderIdentity: 'b' } } });
  const stale = classifyApiError(
    await thrown(() =>
      coordination.replaceNamespacedLease({ name: 'dup', namespace: 'default', body: { ...created, spec: { ...created.spec, holderIdentity: 'c' } } }),
    ),
  );
  assert.deepEqual([stale.kind, stale.action, stale.code, stale.reason], ['conflict', 'retry', 409, 'Conflict']);
});

test('an object the server rejects is invalid -> report, with the field causes', async () => {
  const pod = podManifest('bad');
  pod.spec!.containers = [];
  const c = classifyApiError(await thrown(() => sim.core.createNamespacedPod({ namespace: 'default', body: pod })));
  assert.deepEqual([c.kind, c.action, c.code, c.reason], ['invalid', 'report', 422, 'Invalid']);
  assert.ok(
    c.causes.some((cause) => cause.field?.includes('spec.containers')),
    JSON.stringify(c.causes),
  );
});

test('429 from the server is throttled -> backoff with its Retry-After; 500 is unavailable -> backoff', async (t) => {
  const remove = sim.server.addFault({ resources: ['leases'], verbs: ['get'], error: 429, retryAfterSeconds: 3, times: 1 });
  t.after(remove);
  const throttled = classifyApiError(await thrown(() => coordination.readNamespacedLease({ name: 'x', namespace: 'default' })));
  assert.deepEqual([throttled.kind, throttled.action, throttled.code, throttled.retryAfterMs], ['throttled', 'backoff', 429, 3000]);

  sim.server.addFault({ resources: ['leases'], verbs: ['get'], error: 500, times: 1 });
  const down = classifyApiError(await thrown(() => coordination.readNamespacedLease({ name: 'x', namespace: 'default' })));
  assert.deepEqual([down.kind, down.action, down.code], ['unavailable', 'backoff', 500]);
});

test('a watch resourceVersion that is too old is gone -> retry (re-list)', () => {
  const err = new k8s.ApiException(
    410,
    'Gone',
    JSON.stringify({ kind: 'Status', reason: 'Expired', message: 'too old resource version: 5 (90)', code: 410 }),
    {},
  );
  assert.deepEqual([classifyApiError(err).kind, classifyApiError(err).action], ['gone', 'retry']);
});

test('no server listening is a network error -> backoff', async () => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const kc = new k8s.KubeConfig();
  kc.loadFromClusterAndUser({ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }, { name: 'u' });
  const err = await thrown(() => kc.makeApiClient(k8s.CoordinationV1Api).readNamespacedLease({ name: 'x', namespace: 'default' }));
  const c = classifyApiError(err);
  assert.deepEqual([c.kind, c.action, c.code], ['network', 'backoff', undefined]);
});

test('hand-built ApiExceptions: 401/403 fail, Retry-After header wins over the Status detail, unparsable bodies keep the code', () => {
  assert.equal(classifyApiError(new k8s.ApiException(401, 'Unauthorized', undefined, {})).kind, 'unauthorized');
  const forbidden = classifyApiError(new k8s.ApiException(403, 'x', '{"reason":"Forbidden","message":"pods is forbidden"}', {}));
  assert.deepEqual([forbidden.kind, forbidden.action, forbidden.message], ['forbidden', 'fail', 'pods is forbidden']);
  const throttled = classifyApiError(new k8s.ApiException(429, 'x', '{"details":{"retryAfterSeconds":7}}', { 'retry-after': '2' }));
  assert.equal(throttled.retryAfterMs, 2000);
  assert.equal(classifyApiError(new k8s.ApiException(429, 'x', '{"details":{"retryAfterSeconds":7}}', {})).retryAfterMs, 7000);
  assert.equal(classifyApiError(new k8s.ApiException(429, 'x', 'not json', {})).retryAfterMs, 1000, 'a 429 without a hint waits 1 s');
  const gateway = classifyApiError(new k8s.ApiException(503, 'x', '<html>', {}));
  assert.deepEqual([gateway.kind, gateway.code], ['unavailable', 503]);
  assert.equal(classifyApiError(new Error('boom')).kind, 'other');
});

test('KubeApiError names what was being done and keeps the cause and its classification', () => {
  const cause = new k8s.ApiException(404, 'x', '{"reason":"NotFound","message":"leases \\"l\\" not found"}', {});
  const err = new KubeApiError('renew lease default/l', cause);
  assert.equal(err.message, 'renew lease default/l: notFound (404): leases "l" not found');
  assert.equal(err.cause, cause);
  assert.equal(classificationOf(err).kind, 'notFound');
});
