/**
 * What KubeLeaseStore puts on the wire. A Lease's acquireTime and renewTime are MicroTime: the real
 * apiserver parses them as RFC 3339 with exactly six fractional digits and answers 400 to a plain
 * Date's three ("cannot parse \".491Z\" as \".000000\"", seen on the real-cluster lane: leader
 * election never got a Lease). The bodies are captured by a server on 127.0.0.1.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import * as k8s from '@kubernetes/client-node';
import { KubeLeaseStore } from '../../src/kube/lease-store.ts';

const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const bodies: { method: string; body: { spec?: Record<string, unknown> } }[] = [];
let server: Server;
let kc: k8s.KubeConfig;

before(async () => {
  // Answers every write with the object it was sent (plus a resourceVersion), as an apiserver would.
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as { metadata?: Record<string, unknown>; spec?: Record<string, unknown> };
      bodies.push({ method: req.method ?? '', body });
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...body, metadata: { ...body.metadata, resourceVersion: String(bodies.length) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  kc = new k8s.KubeConfig();
  kc.loadFromClusterAndUser({ name: 'c', server: `http://127.0.0.1:${(server.address() as { port: number }).port}`, skipTLSVerify: true }, { name: 'u' });
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('create and update send acquireTime and renewTime as MicroTime (six fractional digits), and read them back', async () => {
  const store = new KubeLeaseStore(kc, 'tailor-system', 'tailor-updater');
  const acquired = Date.UTC(2026, 11, 2, 2, 6, 27, 491);
  const record = { holderIdentity: 'a_1', leaseDurationSeconds: 15, acquireTime: acquired, renewTime: acquired, leaseTransitions: 0 };
  const created = await store.create(record);
  await store.update({ ...record, renewTime: acquired + 2_003 }, created.resourceVersion);
  assert.deepEqual(
    bodies.map((b) => b.method),
    ['POST', 'PUT'],
  );
  for (const { body } of bodies) {
    assert.match(String(body.spec?.acquireTime), MICRO_TIME);
    assert.match(String(body.spec?.renewTime), MICRO_TIME);
  }
  assert.equal(bodies[0]!.body.spec?.acquireTime, '2026-12-02T02:06:27.491000Z');
  assert.equal(bodies[1]!.body.spec?.renewTime, '2026-12-02T02:06:29.494000Z');
  // What the server answers (six digits) reads back to the same instants.
  assert.equal(created.record.acquireTime, acquired);
  assert.equal(created.record.renewTime, acquired);
});
