/**
 * `tailor run --components updater` through startRun (configuration, kubeconfig, leader election,
 * schedule, /metrics) on kube-sim: the registered updater component fills its watch caches, plans
 * and resizes a pod in place, and exports its metrics.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startRun } from '../../src/controller/start-run.ts';
import { resolveRunConfig } from '../../src/controller/run-config.ts';
import { PassThrough } from 'node:stream';
import { createUpdaterComponent } from '../../src/controller/updater-component.ts';
import type { MemoryUsageWindows } from '../../src/metrics/memory-usage-source.ts';
import { createVpa, deployment, podsOf, startUpdaterFixture, type UpdaterFixture } from '../updater/e2e/updater-fixture.ts';
import type { ServerVersion } from 'kube-sim/server-version';

/** kube-sim at `version` with a kubeconfig file and the Deployment `web` (one pod, cpu 500m/1, memory 256Mi/512Mi) running. */
async function clusterWithWeb(t: TestContext, version: ServerVersion): Promise<{ f: UpdaterFixture; kubeconfig: string }> {
  const f = await startUpdaterFixture(version, [{ cpu: '4', memory: '8Gi' }]);
  const dir = mkdtempSync(join(tmpdir(), 'tailor-updater-run-'));
  t.after(async () => {
    await f.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const kubeconfig = join(dir, 'kubeconfig');
  await f.sim.server.writeKubeconfig(kubeconfig);
  await f.apps.createNamespacedDeployment({
    namespace: 'default',
    body: deployment('web', 1, [
      { name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } } },
    ]),
  });
  await f.tick(2000);
  return { f, kubeconfig };
}

test('tailor run --components updater resizes a pod in place on kube-sim and exports tailor_updater metrics', async (t) => {
  const { f, kubeconfig } = await clusterWithWeb(t, '1.35');
  await createVpa(f, 'web', 'InPlaceOrRecreate', [
    { containerName: 'app', target: { cpu: '800m', memory: '256Mi' }, lowerBound: { cpu: '700m', memory: '200Mi' } },
  ]);
  const { config } = resolveRunConfig(
    {
      components: 'updater',
      metricsAddress: '127.0.0.1',
      metricsPort: '0',
      leaderIdentity: 'replica-1',
      logLevel: 'info',
      kubeconfig,
      memoryPressureWindow: '5m',
      memoryPeakWindow: '3h',
    },
    { TAILOR_MEMORY_PRESSURE_RATIO: '0.95', TAILOR_MEMORY_PEAK_MARGIN: '32Mi', TAILOR_MEMORY_PEAK_MARGIN_RATIO: '0.2' },
  );
  // A usage source that records the windows it is asked for (and has no data, so decisions stay as without usage).
  const windows: MemoryUsageWindows[] = [];
  const usage = { memoryUsage: async (_ns: readonly string[], _at: number, w: MemoryUsageWindows) => (windows.push(w), []) };
  const logs = new PassThrough();
  let logText = '';
  logs.on('data', (chunk: Buffer) => (logText += chunk.toString()));
  const controller = await startRun(config, { env: {}, logDestination: logs, factories: { updater: (ctx) => createUpdaterComponent(ctx, { usage }) } });
  t.after(() => controller.stop());
  let cpu: string | undefined;
  const deadline = Date.now() + 30_000; // the first cycle: a deadline, not 200 rounds of 50 ms
  while (cpu !== '800m' && Date.now() < deadline) {
    await delay(50);
    cpu = (await podsOf(f, 'web'))[0]?.spec?.containers[0]?.resources?.requests?.cpu;
  }
  assert.equal(cpu, '800m', 'the first cycle resized the pod');
  const metrics = await (await fetch(`${controller.http.url}/metrics`)).text();
  assert.match(metrics, /tailor_updater_resizes_total\{path="in-place",outcome="applied"\} 1/);
  assert.match(metrics, /tailor_updater_decisions_total\{action="ResizeInPlace",reason="OutsideBounds"\} 1/);
  assert.deepEqual(
    windows[0],
    { peakWindowMs: 3 * 3_600_000, pressureWindowMs: 5 * 60_000, coverageMs: 60_000 },
    'the configured windows reach the usage query',
  );
  const active = logText
    .split('\n')
    .filter((l) => l.includes('"updater active"'))
    .map((l) => JSON.parse(l) as { memory: unknown; admissionStatus: unknown })[0];
  assert.deepEqual(active?.memory, {
    pressureWindowMs: 300_000,
    pressureRatio: 0.95,
    peakWindowMs: 10_800_000,
    peakMarginRatio: 0.2,
    peakMarginBytes: 33_554_432,
  });
  // The admission status is checked by default, in the admission namespace (no webhook here: not fresh, yet the resize went on).
  assert.equal(active?.admissionStatus, 'tailor/vpa-admission-controller');
  assert.match(metrics, /tailor_updater_admission_status_fresh 0/);
});

test('against a 1.32 server without the feature gate the updater says at start, in one line, that it evicts instead, and does', async (t) => {
  const { f, kubeconfig } = await clusterWithWeb(t, '1.32');
  const [before] = await podsOf(f, 'web');
  await createVpa(
    f,
    'web',
    'InPlaceOrRecreate',
    [{ containerName: 'app', target: { cpu: '800m', memory: '256Mi' }, lowerBound: { cpu: '700m', memory: '200Mi' } }],
    {
      minReplicas: 1,
    },
  );
  const { config } = resolveRunConfig(
    { components: 'updater', metricsAddress: '127.0.0.1', metricsPort: '0', leaderIdentity: 'replica-1', logLevel: 'info', kubeconfig },
    { TAILOR_USE_ADMISSION_STATUS: 'false' },
  );
  const logs = new PassThrough();
  let logText = '';
  logs.on('data', (chunk: Buffer) => (logText += chunk.toString()));
  const controller = await startRun(config, { env: {}, logDestination: logs });
  t.after(() => controller.stop());
  const deadline = Date.now() + 30_000; // the first cycle: a deadline, not a fixed wait
  while (!logText.includes('"msg":"evicted"') && Date.now() < deadline) await delay(50);
  const lines = logText.split('\n').filter((l) => l.includes('no in-place resize'));
  assert.equal(lines.length, 1, 'one line');
  const line = JSON.parse(lines[0]!) as { level: number; version: unknown; msg: string };
  assert.equal(line.level, 40, 'a warning');
  assert.deepEqual(line.version, { major: 1, minor: 32 });
  assert.match(line.msg, /^the API server is 1\.32: no in-place resize .* evicted instead/);
  assert.ok(logText.includes('"msg":"evicted"'), `the pod below its bounds was evicted, not resized:\n${logText.slice(-3000)}`);
  assert.equal(f.calls.filter((c) => c.startsWith('resize')).length, 0);
  const pod = (await f.core.readNamespacedPod({ namespace: 'default', name: before!.metadata!.name! }).catch(() => undefined)) ?? undefined;
  assert.ok(!pod || pod.metadata?.deletionTimestamp, 'the old pod is going');
});
