import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHealthServer } from '../../src/controller/health-server.ts';
import { ControllerMetrics, createRegistry } from '../../src/controller/controller-metrics.ts';
import { LoopHealth } from '../../src/controller/loop-health.ts';
import { silentLogger } from '../../src/observability/logger.ts';

test('over HTTP: /metrics in the text format, /healthz and /readyz follow the loop', async (t) => {
  let now = 0;
  const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
  const health = new LoopHealth('recommender', 10_000, 3);
  const server = await startHealthServer({
    registry: metrics.registry,
    checks: () => [health],
    host: '127.0.0.1',
    port: 0,
    clock: () => now,
    logger: silentLogger(),
  });
  t.after(() => server.close());
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);

  metrics.leader.set({ lease: 'kube-system/tailor-recommender' }, 1);
  const m = await fetch(`${server.url}/metrics`);
  assert.equal(m.status, 200);
  assert.match(m.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
  assert.match(await m.text(), /tailor_leader\{lease="kube-system\/tailor-recommender"\} 1/);

  health.setActive(true, 0);
  const notReady = await fetch(`${server.url}/readyz`);
  assert.equal(notReady.status, 503);
  assert.equal(await notReady.text(), 'recommender: no successful cycle yet\n');
  assert.equal((await fetch(`${server.url}/healthz`)).status, 200);

  health.cycleEnded('recommender', { ok: true, startedAt: 1000, durationMs: 2000 });
  assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
  assert.equal(await (await fetch(`${server.url}/readyz`)).text(), 'ok\n');

  now = 3000 + 30_001;
  const stale = await fetch(`${server.url}/healthz`);
  assert.equal(stale.status, 503);
  assert.match(await stale.text(), /no cycle has ended for 30 s/);

  assert.equal((await fetch(`${server.url}/nothing`)).status, 404);
  assert.equal((await fetch(`${server.url}/metrics`, { method: 'POST' })).status, 405);
});

test('a port in use is an error, not a silent second server', async (t) => {
  const registry = createRegistry({ defaultMetrics: false });
  const first = await startHealthServer({ registry, checks: () => [], host: '127.0.0.1', port: 0, clock: () => 0, logger: silentLogger() });
  t.after(() => first.close());
  await assert.rejects(
    startHealthServer({ registry, checks: () => [], host: '127.0.0.1', port: first.port, clock: () => 0, logger: silentLogger() }),
    /EADDRINUSE/,
  );
});
