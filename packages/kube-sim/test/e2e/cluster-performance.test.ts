import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startKubeSim } from '../../src/kube-sim.ts';
import { defaultScenario } from '../../src/scenario.ts';
import { VPA_CRDS } from '../support/vpa-crds.ts';

// A guard against quadratic passes: 1,000 pods on 10 nodes are created, scheduled and started,
// then a simulated minute of usage is run. On the shared 2-core machine this takes about 2 s and
// 0.1 s; the bounds leave a wide margin. They are on this process's CPU time (the sim runs here),
// which other processes on a loaded machine do not inflate as they do wall-clock time.
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
test('1,000 pods are scheduled and started quickly, and a tick over them stays cheap', async (t) => {
  const scenario = defaultScenario();
  scenario.nodes = Array.from({ length: 10 }, (_, i) => ({ name: `n-${i}`, cpu: '64', memory: '256Gi', pods: 200, labels: {}, resizeSupport: true }));
  const sim = await startKubeSim({ crdManifests: VPA_CRDS, scenario, startAt: Date.UTC(2026, 0, 1), tls: false });
  t.after(() => sim.close());
  let started = cpuMs();
  await sim.server.create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'big', namespace: 'default' },
    spec: {
      replicas: 1000,
      selector: { matchLabels: { app: 'big' } },
      template: {
        metadata: { labels: { app: 'big' } },
        spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] },
      },
    },
  } as never);
  for (let i = 0; i < 3; i++) await sim.cluster.tick(1000);
  await sim.cluster.settle();
  const running = sim.server.store.list('pods').filter((p) => (p.status as { phase?: string } | undefined)?.phase === 'Running').length;
  assert.equal(running, 1000);
  const createMs = cpuMs() - started;
  started = cpuMs();
  await sim.cluster.tick(60_000);
  const tickMs = cpuMs() - started;
  assert.ok(createMs < 30_000, `create, schedule, start: ${createMs} ms of CPU`);
  assert.ok(tickMs < 3_000, `one tick: ${tickMs} ms of CPU`);
});
