import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { podManifest, rawRequest, startSim, statusBody, statusCode, type SimFixture } from './sim-fixture.ts';
import type { FaultRule } from '../../src/apiserver/index.ts';

let sim: SimFixture;
// A deterministic random source: 0.1, 0.6, 0.1, 0.6, ...
let tick = 0;
before(async () => {
  sim = await startSim({ random: () => (tick++ % 2 === 0 ? 0.1 : 0.6) });
  sim.server.registerSubresource('pods', 'resize', { update: ({ current }) => current });
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('f') });
});
after(async () => {
  await sim?.close();
});
afterEach(() => {
  sim.server.faults.clear();
  tick = 0;
});

// prettier-ignore: one row per line, read as a table
const cases: {
  name: string;
  rule: FaultRule;
  method: string;
  path: string;
  body?: unknown;
  contentType?: string;
  status: number;
  reason: string;
  retryAfter?: string;
}[] = [
  {
    name: '500 on list pods',
    rule: { verbs: ['list'], resources: ['pods'], error: 500 },
    method: 'GET',
    path: '/api/v1/namespaces/default/pods',
    status: 500,
    reason: 'InternalError',
  },
  {
    name: '429 with Retry-After on pods/resize',
    rule: { verbs: ['patch'], resources: ['pods'], subresources: ['resize'], error: 429, retryAfterSeconds: 2 },
    method: 'PATCH',
    path: '/api/v1/namespaces/default/pods/f/resize',
    body: [],
    contentType: 'application/json-patch+json',
    status: 429,
    reason: 'TooManyRequests',
    retryAfter: '2',
  },
  {
    name: '409 on get of one pod',
    rule: { verbs: ['get'], resources: ['pods'], error: 409 },
    method: 'GET',
    path: '/api/v1/namespaces/default/pods/f',
    status: 409,
    reason: 'Conflict',
  },
  { name: '410 on list', rule: { verbs: ['list'], error: 410 }, method: 'GET', path: '/api/v1/namespaces/default/configmaps', status: 410, reason: 'Expired' },
  {
    name: 'a rule for another subresource does not fire',
    rule: { resources: ['pods'], subresources: ['status'], error: 500 },
    method: 'GET',
    path: '/api/v1/namespaces/default/pods/f',
    status: 200,
    reason: '',
  },
  {
    name: 'a rule for another namespace does not fire',
    rule: { namespaces: ['other'], error: 500 },
    method: 'GET',
    path: '/api/v1/namespaces/default/pods/f',
    status: 200,
    reason: '',
  },
];

for (const c of cases) {
  test(`fault: ${c.name}`, async () => {
    sim.server.addFault(c.rule);
    const res = await rawRequest(sim.server, c.method, c.path, c.body, c.contentType ? { contentType: c.contentType } : {});
    assert.equal(res.status, c.status, res.text);
    if (c.reason) assert.equal((res.json() as { reason: string }).reason, c.reason);
    assert.equal(res.headers['retry-after'], c.retryAfter);
  });
}

test('rate uses the injected random source; times limits how often a rule fires', async () => {
  sim.server.addFault({ verbs: ['get'], resources: ['pods'], error: 500, rate: 0.5 });
  const statuses: number[] = [];
  for (let i = 0; i < 4; i += 1) statuses.push((await rawRequest(sim.server, 'GET', '/api/v1/namespaces/default/pods/f')).status);
  assert.deepEqual(statuses, [500, 200, 500, 200]);
  sim.server.faults.clear();
  sim.server.addFault({ verbs: ['get'], resources: ['pods'], error: 500, times: 1 });
  const limited: number[] = [];
  for (let i = 0; i < 3; i += 1) limited.push((await rawRequest(sim.server, 'GET', '/api/v1/namespaces/default/pods/f')).status);
  assert.deepEqual(limited, [500, 200, 200]);
});

test('latency delays the request', async () => {
  sim.server.addFault({ verbs: ['get'], resources: ['pods'], latencyMs: 300 });
  const started = Date.now();
  await sim.core.readNamespacedPod({ namespace: 'default', name: 'f' });
  assert.ok(Date.now() - started >= 290);
});

test('client-node sees an injected 429 as an ApiException with the Status body', async () => {
  sim.server.addFault({ verbs: ['list'], resources: ['pods'], error: 429, retryAfterSeconds: 5 });
  await assert.rejects(sim.core.listNamespacedPod({ namespace: 'default' }), (err) => {
    assert.equal(statusCode(err), 429);
    assert.equal(statusBody(err).details?.retryAfterSeconds, 5);
    return true;
  });
});

test('a dropped watch ends the stream', async () => {
  sim.server.addFault({ verbs: ['watch'], resources: ['pods'], dropWatchAfterMs: 100 });
  const watch = new k8s.Watch(sim.kc);
  const started = Date.now();
  const ended = await new Promise<number>((resolve) => {
    void watch.watch(
      '/api/v1/namespaces/default/pods',
      {},
      () => {},
      () => resolve(Date.now() - started),
    );
  });
  // Not before the 100 ms; the upper bound only has to tell "dropped" from "never ends", so it
  // leaves a loaded machine 10 s.
  assert.ok(ended >= 90 && ended < 10_000, `ended after ${ended} ms`);
});

test('in-process requests are not affected by faults', async () => {
  sim.server.addFault({ error: 500 });
  const res = await sim.server.execute({ verb: 'get', group: '', version: 'v1', resource: 'pods', namespace: 'default', name: 'f' });
  assert.equal(res.status, 200);
});

test('fault: a rule for some users fires only for their requests', async () => {
  sim.server.addFault({ users: ['system:serviceaccount:default:replica-b'], error: 500 });
  const asAdmin = await rawRequest(sim.server, 'GET', '/api/v1/namespaces/default/pods/f');
  assert.equal(asAdmin.status, 200, 'kube-sim-admin is not in the rule');
  sim.server.faults.clear();
  sim.server.addFault({ users: ['kube-sim-admin'], error: 500 });
  const failed = await rawRequest(sim.server, 'GET', '/api/v1/namespaces/default/pods/f');
  assert.equal(failed.status, 500);
});
