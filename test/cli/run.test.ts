import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import { loopSchedule, startRun } from '../../src/controller/start-run.ts';
import { resolveRunConfig, type RunConfig } from '../../src/controller/run-config.ts';
import type { ComponentFactory } from '../../src/controller/component.ts';
import { startSim } from 'kube-sim/test/apiserver/sim-fixture';
import { tailorInProcess } from './cli-in-process.ts';
import { componentFactories, ComponentNotImplementedError } from '../../src/controller/component-registry.ts';
import { CLI_DEADLINE_MS } from '../support/cli-deadline.ts';

function tailor(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['bin/tailor.mjs', 'run', ...args], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: '/nonexistent', ...env },
    timeout: CLI_DEADLINE_MS,
  });
}

test('tailor run with every component fails clearly when the cluster cannot be reached', () => {
  const r = tailor(['--components', 'recommender,updater,admission', '--prometheus-url', 'http://127.0.0.1:9', '--kubeconfig', '/nonexistent/kubeconfig']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^tailor run: --kubeconfig \/nonexistent\/kubeconfig: no such file/);
});

test('tailor run reports every configuration problem, naming flags and variables, before anything else', () => {
  const r = tailor(['--interval', '5x'], { TAILOR_METRICS_PORT: 'http' });
  assert.equal(r.status, 2, 'a usage error');
  assert.match(r.stderr, /invalid configuration:/);
  assert.match(r.stderr, /--interval=5x: invalid duration/);
  assert.match(r.stderr, /TAILOR_METRICS_PORT=http: not a whole number/);
});

test('a --memory-budget below what the process needs is one of the configuration problems', () => {
  const r = tailor(['--interval', '5x'], { TAILOR_MEMORY_BUDGET: '64Mi' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /TAILOR_MEMORY_BUDGET=64Mi: must be at least 128Mi/);
  assert.match(r.stderr, /--interval=5x: invalid duration/);
});

test('tailor run --help lists the options with their variables', () => {
  const r = spawnSync(process.execPath, ['bin/tailor.mjs', 'run', '--help'], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  assert.match(r.stdout, /--prometheus-url <url>[\s\S]*?TAILOR_PROMETHEUS_URL/);
  assert.match(r.stdout, /docs\/configuration\.md/);
});

test('component lookup names every missing component and the implemented ones', () => {
  assert.throws(
    () => componentFactories(['updater'], {}),
    (err: Error) => err instanceof ComponentNotImplementedError && /updater \(issue 7\).*implemented components: none/.test(err.message),
  );
  const factory = () => ({ kind: 'server' as const, name: 'admission' as const, start: async () => undefined, stop: async () => undefined });
  assert.deepEqual(componentFactories(['admission'], { admission: factory }), [['admission', factory]]);
  assert.throws(
    () => componentFactories(['admission', 'updater'], { admission: factory }),
    /not implemented yet: updater \(issue 7\).*implemented components: admission/,
  );
});

test('the loop schedule: --interval as a cron step ticked every so many ms, --schedule as given with its longest gap', () => {
  const env = { TAILOR_PROMETHEUS_URL: 'http://p:9090' };
  assert.deepEqual(loopSchedule(resolveRunConfig({ interval: '30s' }, env).config), { cron: '*/30 * * * * *', intervalMs: 30_000, everyMs: 30_000 });
  assert.deepEqual(loopSchedule(resolveRunConfig({ schedule: '0 */10 * * * *' }, env).config), { cron: '0 */10 * * * *', intervalMs: 600_000 });
});

test('startRun wires configuration, kubeconfig, leader election, schedule and HTTP around a component', async (t) => {
  const sim = await startSim();
  const dir = mkdtempSync(join(tmpdir(), 'tailor-run-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await sim.server.writeKubeconfig(kubeconfig);
  const cycles: number[] = [];
  let seenConfig: RunConfig | undefined;
  const factory: ComponentFactory = (ctx) => {
    seenConfig = ctx.config;
    return { kind: 'loop', name: 'updater', runCycle: async ({ cycle }) => void cycles.push(cycle) };
  };
  const { config } = resolveRunConfig(
    { components: 'updater', metricsAddress: '127.0.0.1', metricsPort: '0', leaderIdentity: 'replica-1', logLevel: 'silent' },
    {},
  );
  // No --kubeconfig: KUBECONFIG from the (injected) environment is used.
  const controller = await startRun(config, { env: { KUBECONFIG: kubeconfig }, factories: { updater: factory } });
  t.after(async () => {
    await controller.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });
  assert.equal(seenConfig, config);
  const start = Date.now();
  while (cycles.length === 0 && Date.now() - start < 10_000) await delay(20);
  assert.deepEqual(cycles, [1], 'the first cycle runs as soon as the lease is held, not at the next minute');
  assert.equal((await fetch(`${controller.http.url}/readyz`)).status, 200);
  const leases = sim.kc.makeApiClient(k8s.CoordinationV1Api);
  assert.equal((await leases.readNamespacedLease({ name: 'tailor-updater', namespace: 'kube-system' })).spec?.holderIdentity, 'replica-1');
  assert.equal(controller.loops.get('updater')?.stats().cycles, 1);
  await controller.stop();
  assert.equal((await leases.readNamespacedLease({ name: 'tailor-updater', namespace: 'kube-system' })).spec?.holderIdentity, '', 'released at stop');
});

test('a server component that cannot start is reported with its cause (admission without its namespace)', async (t) => {
  const sim = await startSim();
  const dir = mkdtempSync(join(tmpdir(), 'tailor-run-'));
  t.after(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const kubeconfig = join(dir, 'kubeconfig');
  await sim.server.writeKubeconfig(kubeconfig);
  const r = await tailorInProcess([
    'run',
    '--components',
    'admission',
    '--kubeconfig',
    kubeconfig,
    '--metrics-address',
    '127.0.0.1',
    '--metrics-port',
    '0',
    '--admission-address',
    '127.0.0.1',
    '--admission-port',
    '0',
    '--log-level',
    'silent',
  ]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^tailor run: a server component failed to start: .*namespaces "tailor" not found/);
});
