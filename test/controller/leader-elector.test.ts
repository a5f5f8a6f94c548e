import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import { LeaderElector } from '../../src/controller/leader-elector.ts';
import { KubeLeaseStore } from '../../src/kube/lease-store.ts';
import { silentLogger } from '../../src/observability/logger.ts';
import { startSim, type SimFixture } from '../sim/apiserver/sim-fixture.ts';

// Real timings, short but with room for a loaded machine: lease 4 s, renew deadline 3 s, retry 250 ms.
const TIMING = { leaseDurationMs: 4000, renewDeadlineMs: 3000, retryPeriodMs: 250 };

interface Candidate {
  elector: LeaderElector;
  stop: () => Promise<void>;
  events: string[];
}

/** An elector running against the sim; `crashes` = it stops without releasing the Lease. */
function candidate(sim: SimFixture, identity: string, options: { crashes?: boolean } = {}): Candidate {
  const events: string[] = [];
  const elector = new LeaderElector({
    ...TIMING,
    store: new KubeLeaseStore(sim.kc, 'kube-system', 'tailor-test'),
    identity,
    logger: silentLogger(),
    onStartedLeading: () => events.push('started'),
    onStoppedLeading: () => void events.push('stopped'),
  });
  const controller = new AbortController();
  const running = elector.run(controller.signal, { release: !options.crashes });
  return {
    elector,
    events,
    stop: async () => {
      controller.abort();
      await running;
    },
  };
}

async function until(what: string, condition: () => boolean, timeoutMs = 5000): Promise<number> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) assert.fail(`timed out waiting for ${what}`);
    await delay(10);
  }
  return Date.now() - start;
}

async function holder(sim: SimFixture): Promise<string | undefined> {
  const l = await sim.kc.makeApiClient(k8s.CoordinationV1Api).readNamespacedLease({ name: 'tailor-test', namespace: 'kube-system' });
  return l.spec?.holderIdentity;
}

test('two electors over HTTP: exactly one leads, and the Lease names it', async (t) => {
  const sim = await startSim();
  const a = candidate(sim, 'a');
  const b = candidate(sim, 'b');
  t.after(async () => {
    await Promise.all([a.stop(), b.stop()]);
    await sim.close();
  });
  await until('a leader', () => a.elector.isLeader() || b.elector.isLeader());
  // Watch for 2 s (8 renewals): never both, never none.
  for (let i = 0; i < 100; i++) {
    const leaders = [a, b].filter((c) => c.elector.isLeader()).length;
    assert.equal(leaders, 1, `sample ${i}: ${leaders} leaders`);
    await delay(20);
  }
  const leader = a.elector.isLeader() ? 'a' : 'b';
  assert.equal(await holder(sim), leader);
  assert.equal(a.elector.currentLeader(), leader);
  assert.equal(b.elector.currentLeader(), leader);
});

test('handover after release: the other takes over well before the lease would expire', async (t) => {
  const sim = await startSim();
  const a = candidate(sim, 'a');
  t.after(async () => {
    await a.stop();
    await sim.close();
  });
  await until('a leads', () => a.elector.isLeader());
  const b = candidate(sim, 'b');
  t.after(() => b.stop());
  await delay(300);
  assert.equal(b.elector.isLeader(), false);
  const stoppedAt = Date.now();
  await a.stop();
  assert.deepEqual(a.events, ['started', 'stopped']);
  const took = await until('b leads', () => b.elector.isLeader());
  assert.ok(Date.now() - stoppedAt < TIMING.leaseDurationMs, `handover took ${Date.now() - stoppedAt} ms`);
  assert.ok(took >= 0);
  assert.equal(await holder(sim), 'b');
  const lease = await sim.kc.makeApiClient(k8s.CoordinationV1Api).readNamespacedLease({ name: 'tailor-test', namespace: 'kube-system' });
  assert.equal(lease.spec?.leaseTransitions, 1, 'a created it (0), b acquired it (1)');
});

test('a leader that stops renewing (crash) is replaced after the lease duration, not before', async (t) => {
  const sim = await startSim();
  const a = candidate(sim, 'a', { crashes: true });
  t.after(async () => {
    await a.stop();
    await sim.close();
  });
  await until('a leads', () => a.elector.isLeader());
  const b = candidate(sim, 'b');
  t.after(() => b.stop());
  await delay(250);
  const crashedAt = Date.now();
  await a.stop(); // a crash: the Lease still names a
  assert.equal(await holder(sim), 'a');
  await until('b leads', () => b.elector.isLeader(), 10_000);
  const after = Date.now() - crashedAt;
  // b first saw a's last renewal at most ~one retry period before the crash.
  assert.ok(after >= TIMING.leaseDurationMs - TIMING.retryPeriodMs - 20, `took over after ${after} ms`);
  assert.ok(after <= TIMING.leaseDurationMs + 4 * TIMING.retryPeriodMs + 1500, `took over after ${after} ms`);
  assert.equal(await holder(sim), 'b');
});

test('the leader steps down when renewals fail past the renew deadline, and leads again when the server recovers', async (t) => {
  const sim = await startSim();
  const a = candidate(sim, 'a');
  t.after(async () => {
    await a.stop();
    await sim.close();
  });
  await until('a leads', () => a.elector.isLeader());
  const remove = sim.server.addFault({ resources: ['leases'], error: 500 });
  const faultAt = Date.now();
  const steppedDown = await until('a steps down', () => !a.elector.isLeader(), 6000);
  assert.ok(steppedDown >= TIMING.renewDeadlineMs - TIMING.retryPeriodMs - 20, `stepped down after ${steppedDown} ms`);
  assert.ok(Date.now() - faultAt < TIMING.leaseDurationMs, 'before anyone else could take the lease');
  assert.deepEqual(a.events, ['started', 'stopped']);
  remove();
  await until('a leads again', () => a.elector.isLeader(), 6000);
  assert.deepEqual(a.events, ['started', 'stopped', 'started']);
});

test('a renewal that hangs (API latency) counts against the deadline', async (t) => {
  const sim = await startSim();
  const a = candidate(sim, 'a', { crashes: true });
  t.after(async () => {
    sim.server.faults.clear();
    await a.stop();
    await sim.close();
  });
  await until('a leads', () => a.elector.isLeader());
  sim.server.addFault({ resources: ['leases'], latencyMs: 8000 });
  const steppedDown = await until('a steps down', () => !a.elector.isLeader(), 8000);
  assert.ok(steppedDown < TIMING.renewDeadlineMs + 2 * TIMING.retryPeriodMs + 1000, `stepped down after ${steppedDown} ms, not when the request came back`);
});

test('timings are checked: retry < renew deadline < lease duration', () => {
  assert.throws(
    () => new LeaderElector({ store: { where: 'x' } as never, identity: 'a', logger: silentLogger(), leaseDurationMs: 1000, renewDeadlineMs: 1000, retryPeriodMs: 100 }),
    /retryPeriod < renewDeadline < leaseDuration/,
  );
});
