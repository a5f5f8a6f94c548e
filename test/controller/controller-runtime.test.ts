import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import { startController, defaultLeaseName, type RunningController } from '../../src/controller/controller-runtime.ts';
import type { LoopComponent } from '../../src/controller/component.ts';
import type { Ticker } from '../../src/controller/loop-scheduler.ts';
import { resolveRunConfig } from '../../src/controller/run-config.ts';
import { ControllerMetrics, createRegistry } from '../../src/controller/controller-metrics.ts';
import { silentLogger } from '../../src/observability/logger.ts';
import { startSim, type SimFixture } from 'kube-sim/test/apiserver/sim-fixture';

/** Ticks every `ms` with a timer (node-cron's smallest step is a second; the scheduler test covers it). */
function intervalTicker(ms: number): Ticker {
  let timer: NodeJS.Timeout | undefined;
  return {
    start: (onTick) => void (timer = setInterval(onTick, ms)),
    stop: () => clearInterval(timer),
  };
}

interface Trace {
  replica: string;
  event: 'activate' | 'start' | 'end' | 'deactivate';
  at: number;
  reason?: string;
}

/**
 * A loop component for the test: records what the runtime makes it do; each cycle takes `cycleMs`,
 * or (given a promise) lasts until the test settles it.
 */
function recordingLoop(replica: string, trace: Trace[], cycle: number | Promise<void> = 30): LoopComponent {
  return {
    kind: 'loop',
    name: 'updater',
    activate: async () => void trace.push({ replica, event: 'activate', at: Date.now() }),
    runCycle: async ({ signal }) => {
      trace.push({ replica, event: 'start', at: Date.now() });
      if (typeof cycle === 'number') await delay(cycle, undefined, { signal }).catch(() => undefined);
      else await cycle;
      trace.push({ replica, event: 'end', at: Date.now() });
    },
    deactivate: async (reason) => void trace.push({ replica, event: 'deactivate', at: Date.now(), ...(reason ? { reason } : {}) }),
  };
}

const config = (extra: Record<string, string> = {}) =>
  resolveRunConfig(
    {
      components: 'updater',
      metricsAddress: '127.0.0.1',
      metricsPort: '0',
      leaseDuration: '4s',
      renewDeadline: '3s',
      retryPeriod: '250ms',
      interval: '1s',
      ...extra,
    },
    {},
  ).config;

async function replica(
  sim: SimFixture,
  identity: string,
  trace: Trace[],
  cycle?: number | Promise<void>,
  extra?: Record<string, string>,
): Promise<RunningController> {
  return startController({
    config: config(extra),
    components: [recordingLoop(identity, trace, cycle)],
    kubeConfig: sim.kc,
    metrics: new ControllerMetrics(createRegistry({ defaultMetrics: false })),
    logger: silentLogger(),
    clock: () => Date.now(),
    schedule: { cron: 'unused', intervalMs: 100 },
    identity,
    ticker: () => intervalTicker(100),
  });
}

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) assert.fail(`timed out waiting for ${what}`);
    await delay(20);
  }
}

test('two replicas: only the leader runs cycles; after it stops, the other takes over with no overlapping cycles', async (t) => {
  const sim = await startSim();
  const trace: Trace[] = [];
  const a = await replica(sim, 'a', trace);
  t.after(async () => {
    await a.stop();
    await sim.close();
  });
  await until('a leads', () => a.elector?.isLeader() === true);
  const b = await replica(sim, 'b', trace);
  t.after(() => b.stop());
  // Wait for what the checks need (not a fixed time, which a loaded machine overruns): a ran
  // cycles, and b has read the Lease naming a (so it did try) at least twice.
  await until('a ran 3 cycles', () => trace.filter((e) => e.replica === 'a' && e.event === 'end').length >= 3);
  await until('b saw a lead', () => b.elector?.currentLeader() === 'a');
  const seenAt = Date.now();
  await until('b tried again', () => Date.now() - seenAt >= 600);
  assert.equal(trace.filter((e) => e.replica === 'b').length, 0, 'b stood by');
  // Both are ready (b as a standby); the metrics say who leads.
  assert.equal((await fetch(`${a.http.url}/readyz`)).status, 200);
  assert.equal((await fetch(`${b.http.url}/readyz`)).status, 200);
  assert.match(await (await fetch(`${a.http.url}/metrics`)).text(), /tailor_leader\{lease="kube-system\/tailor-updater"\} 1/);
  assert.match(await (await fetch(`${b.http.url}/metrics`)).text(), /tailor_leader\{lease="kube-system\/tailor-updater"\} 0/);

  await a.stop();
  await until('b runs cycles', () => trace.some((e) => e.replica === 'b' && e.event === 'end'));
  const aLast = Math.max(...trace.filter((e) => e.replica === 'a').map((e) => e.at));
  const bFirst = Math.min(...trace.filter((e) => e.replica === 'b').map((e) => e.at));
  assert.ok(bFirst >= aLast, 'b began after a had finished and deactivated');
  const aEvents = trace.filter((e) => e.replica === 'a').map((e) => e.event);
  assert.equal(aEvents[0], 'activate');
  assert.equal(aEvents.at(-1), 'deactivate');
  assert.equal(aEvents.at(-2), 'end', 'the last cycle ended before deactivate');
  assert.equal(trace.filter((e) => e.replica === 'b')[0]!.event, 'activate');
  const lease = await sim.kc.makeApiClient(k8s.CoordinationV1Api).readNamespacedLease({ name: defaultLeaseName(['updater']), namespace: 'kube-system' });
  assert.equal(lease.spec?.holderIdentity, 'b');
});

test('shutdown waits for the running cycle, keeps the Lease until then, and releases it after', async (t) => {
  const sim = await startSim();
  const trace: Trace[] = [];
  // The cycle lasts until the test ends it, so "while stopping" holds however slow the machine is.
  let endCycle!: () => void;
  const cycle = new Promise<void>((resolve) => (endCycle = resolve));
  const a = await replica(sim, 'a', trace, cycle);
  t.after(async () => {
    endCycle();
    await a.stop();
    await sim.close();
  });
  await until('a cycle is running', () => trace.some((e) => e.event === 'start'));
  const leases = sim.kc.makeApiClient(k8s.CoordinationV1Api);
  let stopped = false;
  const stopping = a.stop().then(() => void (stopped = true));
  await delay(200);
  const holderWhileStopping = (await leases.readNamespacedLease({ name: 'tailor-updater', namespace: 'kube-system' })).spec?.holderIdentity;
  assert.equal(stopped, false, 'stop waits for the running cycle');
  const endedAt = Date.now();
  endCycle();
  await stopping;
  assert.equal(holderWhileStopping, 'a');
  assert.deepEqual(
    trace.map((e) => e.event),
    ['activate', 'start', 'end', 'deactivate'],
  );
  assert.ok(trace[2]!.at >= endedAt, 'the cycle ran to its end');
  const after = await leases.readNamespacedLease({ name: 'tailor-updater', namespace: 'kube-system' });
  assert.equal(after.spec?.holderIdentity, '', 'released');
  await assert.rejects(fetch(`${a.http.url}/healthz`), 'the HTTP server is closed');
});

test('without leader election the loop starts at once; a failing activate fails the cycle and is retried at the next tick', async (t) => {
  const sim = await startSim();
  let activations = 0;
  const cycles: number[] = [];
  const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
  const c = await startController({
    config: config({ leaderElect: 'false' }),
    components: [
      {
        kind: 'loop',
        name: 'updater',
        activate: async () => {
          if (++activations === 1) throw new Error('checkpoints unreadable');
        },
        runCycle: async ({ cycle }) => void cycles.push(cycle),
      },
    ],
    kubeConfig: sim.kc,
    metrics,
    logger: silentLogger(),
    clock: () => Date.now(),
    schedule: { cron: 'unused', intervalMs: 100 },
    identity: 'solo',
    ticker: () => intervalTicker(100),
  });
  t.after(async () => {
    await c.stop();
    await sim.close();
  });
  assert.equal(c.elector, undefined);
  await until('two cycles done', () => cycles.length >= 2);
  assert.equal(activations, 2);
  assert.equal(cycles[0], 2, 'cycle 1 failed in activate');
  const text = await (await fetch(`${c.http.url}/metrics`)).text();
  assert.match(text, /tailor_loop_cycle_failures_total\{loop="updater"\} 1/);
  assert.match(text, /tailor_loop_phase_duration_seconds_count\{loop="updater",phase="activate"\} 2/);
  assert.equal((await fetch(`${c.http.url}/readyz`)).status, 200);
  const leases = await sim.kc.makeApiClient(k8s.CoordinationV1Api).listNamespacedLease({ namespace: 'kube-system' });
  assert.equal(leases.items.length, 0, 'no Lease without leader election');
});

test('deactivate says why: shutdown while leading, or leadership lost (when the Lease cannot be renewed)', async (t) => {
  const sim = await startSim();
  const trace: Trace[] = [];
  const a = await replica(sim, 'a', trace);
  t.after(async () => {
    sim.server.faults.clear();
    await a.stop();
    await sim.close();
  });
  await until('a leads', () => a.elector?.isLeader() === true);
  sim.server.addFault({ resources: ['leases'], error: 500 });
  await until('a steps down', () => trace.some((e) => e.event === 'deactivate'), 6000);
  assert.equal(trace.find((e) => e.event === 'deactivate')?.reason, 'leadershipLost');
  sim.server.faults.clear();
  await until('a leads again', () => a.elector?.isLeader() === true, 10_000);
  await a.stop();
  assert.equal(trace.filter((e) => e.event === 'deactivate').at(-1)?.reason, 'shutdown');
});

test('a first cycle longer than the interval (history, activation) makes no tick skipped: the ticks start after it', async (t) => {
  const sim = await startSim();
  const trace: Trace[] = [];
  let release!: () => void;
  const slowFirst = new Promise<void>((resolve) => (release = resolve));
  let cycles = 0;
  const component: LoopComponent = {
    kind: 'loop',
    name: 'updater',
    runCycle: async () => {
      if (++cycles === 1) await slowFirst;
      trace.push({ replica: 'solo', event: 'end', at: Date.now() });
    },
  };
  const c = await startController({
    config: config({ leaderElect: 'false' }),
    components: [component],
    kubeConfig: sim.kc,
    metrics: new ControllerMetrics(createRegistry({ defaultMetrics: false })),
    logger: silentLogger(),
    clock: () => Date.now(),
    schedule: { cron: 'unused', intervalMs: 100 },
    identity: 'solo',
    ticker: () => intervalTicker(20),
  });
  t.after(async () => {
    await c.stop();
    await sim.close();
  });
  await delay(300); // many 20 ms intervals pass while the first cycle runs
  release();
  await until('two more cycles after the first', () => trace.length >= 3);
  assert.equal(c.loops.get('updater')?.stats().skippedTicks, 0);
});
