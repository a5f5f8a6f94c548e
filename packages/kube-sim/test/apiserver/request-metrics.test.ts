import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { podManifest, rawRequest, startSim, type SimFixture } from './sim-fixture.ts';

let sim: SimFixture;
before(async () => {
  sim = await startSim();
});
after(async () => {
  await sim?.close();
});

test('HTTP requests are counted per verb, resource, subresource, code and user; in-process ones are not', async () => {
  sim.server.requests.reset();
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('m') });
  await sim.core.listNamespacedPod({ namespace: 'default' });
  await sim.core.listNamespacedPod({ namespace: 'default' });
  await sim.core.patchNamespacedPodStatus(
    { namespace: 'default', name: 'm', body: { status: { phase: 'Running' } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  await assert.rejects(sim.core.readNamespacedPod({ namespace: 'default', name: 'missing' }));
  await sim.server.execute({ verb: 'list', group: '', version: 'v1', resource: 'pods', namespace: 'default' });
  const rows = sim.server.requests
    .snapshot({ resource: 'pods' })
    .map((r) => `${r.verb} ${r.subresource || '-'} ${r.code} ${r.count}`)
    .sort();
  assert.deepEqual(rows, ['GET - 404 1', 'LIST - 200 2', 'PATCH status 200 1', 'POST - 201 1']);
  assert.equal(sim.server.requests.count({ username: 'kube-sim-admin' }), 5);
});

test('/metrics serves apiserver_request_total in Prometheus text format', async () => {
  const res = await rawRequest(sim.server, 'GET', '/metrics', undefined, { accept: 'text/plain' });
  assert.equal(res.status, 200);
  assert.match(res.text, /apiserver_request_total\{verb="LIST",group="",version="v1",resource="pods",subresource="",scope="namespace",code="200"\} 2/);
  assert.match(res.text, /apiserver_request_duration_seconds_bucket\{le="0.005",verb="LIST"/);
});

test('the request log reports each request with its object, user agent, field manager and times, in order', async () => {
  const log: Array<{ verb: string; name?: string; userAgent?: string; fieldManager?: string; startedAt?: number; endedAt?: number; code: number }> = [];
  const stop = sim.server.requests.onRecord((r) => log.push(r));
  const before = Date.now();
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('logged'), fieldManager: 'tester' });
  await sim.core.readNamespacedPod({ namespace: 'default', name: 'logged' });
  stop();
  await sim.core.readNamespacedPod({ namespace: 'default', name: 'logged' });
  assert.deepEqual(
    log.map((r) => `${r.verb} ${r.name ?? '-'} ${r.fieldManager ?? '-'} ${r.code}`),
    ['POST - tester 201', 'GET logged - 200'],
  );
  assert.ok(log.every((r) => r.startedAt! >= before && r.endedAt! >= r.startedAt! && r.endedAt! <= Date.now()));
  assert.ok(
    log.every((r) => typeof r.userAgent === 'string' && r.userAgent.length > 0),
    JSON.stringify(log.map((r) => r.userAgent)),
  );
});
