import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { LeaderElector } from '../../src/controller/leader-elector.ts';
import { KubeLeaseStore, type LeaseStore } from '../../src/kube/lease-store.ts';
import type { LeaseRecord, LeaseSnapshot } from '../../src/kube/lease-decision.ts';
import { silentLogger } from '../../src/observability/logger.ts';
import { startSim, type SimFixture } from 'kube-sim/test/apiserver/sim-fixture';
import { VirtualTime } from '../support/virtual-time.ts';

// Timings as in a real deployment scaled down: lease 4 s, renew deadline 3 s, retry 250 ms. They run
// on virtual time (test/support/virtual-time.ts): the electors talk real HTTP to the sim, but time
// moves only while they sleep, so the durations below are exact whatever the machine's load.
const TIMING = { leaseDurationMs: 4000, renewDeadlineMs: 3000, retryPeriodMs: 250 };
/** Acquire attempts wait retry x (1 + 0.2 x 0.5) = 275 ms. */
const JITTER = 0.5;
const ACQUIRE_PERIOD_MS = TIMING.retryPeriodMs * (1 + 0.2 * JITTER);

interface Candidate {
  elector: LeaderElector;
  stop: () => Promise<void>;
  events: string[];
}

/** Lease requests that time waits for; while `hangs` is set each one first takes `hangs` virtual ms. */
class TrackedStore implements LeaseStore {
  hangs = 0;
  private readonly cleanup = new AbortController();
  constructor(
    private readonly inner: LeaseStore,
    private readonly time: VirtualTime,
  ) {}
  get where(): string {
    return this.inner.where;
  }
  get(): Promise<LeaseSnapshot | undefined> {
    return this.call(() => this.inner.get());
  }
  create(record: LeaseRecord): Promise<LeaseSnapshot> {
    return this.call(() => this.inner.create(record));
  }
  update(record: LeaseRecord, resourceVersion: string): Promise<LeaseSnapshot> {
    return this.call(() => this.inner.update(record, resourceVersion));
  }
  /** Ends every hanging request (with an error), for cleanup. */
  unhang(): void {
    this.hangs = 0;
    this.cleanup.abort(new Error('test over'));
  }
  private async call<T>(request: () => Promise<T>): Promise<T> {
    if (this.hangs > 0) await this.time.sleep(this.hangs, this.cleanup.signal);
    return this.time.track(request);
  }
}

/** An elector running against the sim; `crashes` = it stops without releasing the Lease. */
function candidate(sim: SimFixture, time: VirtualTime, identity: string, options: { crashes?: boolean; store?: TrackedStore } = {}): Candidate {
  const events: string[] = [];
  const elector = new LeaderElector({
    ...TIMING,
    store: options.store ?? new TrackedStore(new KubeLeaseStore(sim.kc, 'kube-system', 'tailor-test'), time),
    identity,
    logger: silentLogger(),
    clock: time.clock,
    sleep: time.sleep,
    random: () => JITTER,
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

/** A sim, virtual time, and candidate `a` once it leads; both stopped when the test ends. */
async function leaderA(t: TestContext, options: { crashes?: boolean } = {}): Promise<{ sim: SimFixture; time: VirtualTime; a: Candidate }> {
  const sim = await startSim();
  const time = new VirtualTime();
  const a = candidate(sim, time, 'a', options);
  t.after(async () => {
    await a.stop();
    await sim.close();
  });
  await time.until('a leads', () => a.elector.isLeader(), 1000);
  return { sim, time, a };
}

async function holder(sim: SimFixture): Promise<string | undefined> {
  const l = await sim.kc.makeApiClient(k8s.CoordinationV1Api).readNamespacedLease({ name: 'tailor-test', namespace: 'kube-system' });
  return l.spec?.holderIdentity;
}

test('two electors over HTTP: exactly one leads, and the Lease names it', async (t) => {
  const sim = await startSim();
  const time = new VirtualTime();
  const a = candidate(sim, time, 'a');
  const b = candidate(sim, time, 'b');
  t.after(async () => {
    await Promise.all([a.stop(), b.stop()]);
    await sim.close();
  });
  await time.until('a leader', () => a.elector.isLeader() || b.elector.isLeader(), 1000);
  // 10 s (40 renewals, 2.5 lease durations), checked after every timer: never both, never none.
  let checks = 0;
  const from = time.now();
  await time.advance(10_000, () => {
    const leaders = [a, b].filter((c) => c.elector.isLeader()).length;
    assert.equal(leaders, 1, `at +${time.now() - from} ms: ${leaders} leaders`);
    checks++;
  });
  assert.ok(checks >= 40 + 36, `${checks} checks`);
  const leader = a.elector.isLeader() ? 'a' : 'b';
  assert.equal(await holder(sim), leader);
  assert.equal(a.elector.currentLeader(), leader);
  assert.equal(b.elector.currentLeader(), leader);
});

test('handover after release: the other takes over at its next attempt, not when the lease would expire', async (t) => {
  const { sim, time, a } = await leaderA(t);
  const b = candidate(sim, time, 'b');
  t.after(() => b.stop());
  await time.advance(1000);
  assert.equal(b.elector.isLeader(), false);
  await a.stop();
  assert.deepEqual(a.events, ['started', 'stopped']);
  const took = await time.until('b leads', () => b.elector.isLeader(), TIMING.leaseDurationMs);
  assert.ok(took <= ACQUIRE_PERIOD_MS, `handover took ${took} ms`);
  assert.equal(await holder(sim), 'b');
  const lease = await sim.kc.makeApiClient(k8s.CoordinationV1Api).readNamespacedLease({ name: 'tailor-test', namespace: 'kube-system' });
  assert.equal(lease.spec?.leaseTransitions, 1, 'a created it (0), b acquired it (1)');
});

test('a leader that stops renewing (crash) is replaced after the lease duration, not before', async (t) => {
  const { sim, time, a } = await leaderA(t, { crashes: true });
  const b = candidate(sim, time, 'b');
  t.after(() => b.stop());
  await time.advance(1000);
  await a.stop(); // a crash: the Lease still names a
  assert.equal(await holder(sim), 'a');
  // a renewed at most one retry period ago, and b saw that version at most one attempt later:
  // b may take over from 4000 - 250 ms on, and does so within one attempt of 4000 ms.
  const after = await time.until('b leads', () => b.elector.isLeader(), 2 * TIMING.leaseDurationMs);
  assert.ok(after >= TIMING.leaseDurationMs - TIMING.retryPeriodMs, `took over after ${after} ms`);
  assert.ok(after <= TIMING.leaseDurationMs + ACQUIRE_PERIOD_MS, `took over after ${after} ms`);
  assert.equal(await holder(sim), 'b');
});

test('the leader steps down when renewals fail past the renew deadline, and leads again when the server recovers', async (t) => {
  const { sim, time, a } = await leaderA(t);
  await time.advance(1000);
  const remove = sim.server.addFault({ resources: ['leases'], error: 500 });
  // The last renewal was at most one retry period before the fault; renewals are tried every
  // retry period, so the step-down comes within one retry period of 3000 ms.
  const steppedDown = await time.until('a steps down', () => !a.elector.isLeader(), TIMING.leaseDurationMs);
  assert.ok(steppedDown >= TIMING.renewDeadlineMs - TIMING.retryPeriodMs, `stepped down after ${steppedDown} ms`);
  assert.ok(steppedDown <= TIMING.renewDeadlineMs + TIMING.retryPeriodMs, `stepped down after ${steppedDown} ms`);
  assert.deepEqual(a.events, ['started', 'stopped']);
  remove();
  await time.until('a leads again', () => a.elector.isLeader(), 2 * TIMING.leaseDurationMs);
  assert.deepEqual(a.events, ['started', 'stopped', 'started']);
});

test('a renewal that hangs (API latency) counts against the deadline', async (t) => {
  const sim = await startSim();
  const time = new VirtualTime();
  const store = new TrackedStore(new KubeLeaseStore(sim.kc, 'kube-system', 'tailor-test'), time);
  const a = candidate(sim, time, 'a', { crashes: true, store });
  t.after(async () => {
    store.unhang();
    await a.stop();
    await sim.close();
  });
  await time.until('a leads', () => a.elector.isLeader(), 1000);
  await time.advance(1000);
  store.hangs = 8000;
  // Stepped down at the renew deadline (last renewal + 3000 ms), not when the request comes back.
  const steppedDown = await time.until('a steps down', () => !a.elector.isLeader(), 8000);
  assert.ok(steppedDown >= TIMING.renewDeadlineMs - TIMING.retryPeriodMs, `stepped down after ${steppedDown} ms`);
  assert.ok(steppedDown <= TIMING.renewDeadlineMs, `stepped down after ${steppedDown} ms, not when the request came back`);
});

test('timings are checked: retry < renew deadline < lease duration', () => {
  assert.throws(
    () =>
      new LeaderElector({
        store: { where: 'x' } as never,
        identity: 'a',
        logger: silentLogger(),
        leaseDurationMs: 1000,
        renewDeadlineMs: 1000,
        retryPeriodMs: 100,
      }),
    /retryPeriod < renewDeadline < leaseDuration/,
  );
});
