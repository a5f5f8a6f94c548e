/**
 * Leader handover between two recommender replicas on one Lease in kube-sim, each a full
 * `tailor run` runtime (leader elector, schedule, recommender component) with its own service
 * account, so kube-sim's request log tells their writes apart by user. Usage comes from a
 * synthetic source (no Prometheus needed: the subject is who writes when).
 *
 * 1. a leads and writes; b stands by and writes nothing.
 * 2. a shuts down gracefully: flushes its checkpoints, releases the Lease; b takes over at its next
 *    retry (well within the lease duration) and resumes from a's checkpoints.
 * 3. a2 (a's account again) stands by; b's Lease calls start failing (fault injection for b's user
 *    only; its other writes would still succeed): b steps down at the renew deadline and stops
 *    writing; a2 takes over after the lease duration and resumes from b's last checkpoints.
 * Throughout: the write requests (VPA status, checkpoints) of the two accounts never overlap in
 * time, and each term's writes come after the previous leader's last write.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { startController, type RunningController } from '../../../src/controller/controller-runtime.ts';
import type { Ticker } from '../../../src/controller/loop-scheduler.ts';
import { createRecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { Writable } from 'node:stream';
import { createLogger, silentLogger, type Logger } from '../../../src/observability/logger.ts';
import type { RequestRecord } from 'kube-sim/apiserver/request-metrics';
import { startKubeSim, type KubeSim } from 'kube-sim';
import { parseScenario } from 'kube-sim/scenario';
import { SyntheticSource } from '../../support/synthetic-source.ts';
import { VPA_CRD_MANIFESTS } from '../../../src/api/vpa-crd-manifests.ts';

const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };
const LEASE_MS = 3000;
const RENEW_DEADLINE_MS = 2000;
const RETRY_MS = 500;
const WRITE_VERBS = new Set(['POST', 'PUT', 'PATCH', 'APPLY', 'DELETE']);
const WRITTEN = new Set(['verticalpodautoscalers', 'verticalpodautoscalercheckpoints']);
const CHECKPOINTS = 'verticalpodautoscalercheckpoints';
const CHECKPOINTS_KEY = `${CHECKPOINTS}.autoscaling.k8s.io`;
const STEP_MS = 1000;

function intervalTicker(ms: number): Ticker {
  let timer: NodeJS.Timeout | undefined;
  return { start: (onTick) => void (timer = setInterval(onTick, ms)), stop: () => clearInterval(timer) };
}

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<number> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) assert.fail(`timed out waiting for ${what}`);
    await delay(25);
  }
  return Date.now();
}

/** A kubeconfig that authenticates as service account `default/<name>` (created here). */
async function account(sim: KubeSim, name: string): Promise<{ kc: k8s.KubeConfig; user: string }> {
  await sim.server.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'default' } });
  const kc = new k8s.KubeConfig();
  kc.loadFromString(sim.server.kubeconfig(sim.server.issueServiceAccountToken('default', name)));
  return { kc, user: `system:serviceaccount:default:${name}` };
}

const { config } = resolveRunConfig(
  {
    components: 'recommender',
    prometheusUrl: 'http://127.0.0.1:9', // unused: the synthetic source is injected
    metricsAddress: '127.0.0.1',
    metricsPort: '0',
    leaseDuration: `${LEASE_MS}ms`,
    renewDeadline: `${RENEW_DEADLINE_MS}ms`,
    retryPeriod: `${RETRY_MS}ms`,
    history: '10m',
    historyStep: `${STEP_MS}ms`,
    checkpointInterval: '2s',
    logLevel: 'silent',
  },
  {},
);

/** A logger that keeps the `written` field of the recommender's "checkpoints written at shutdown" line. */
function shutdownLog(): { logger: Logger; written: () => number | undefined } {
  let written: number | undefined;
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as { msg: string; written?: number };
        if (entry.msg.startsWith('checkpoints written at shutdown')) written = entry.written;
      }
      done();
    },
  });
  return { logger: createLogger({ level: 'info', destination }), written: () => written };
}

function replica(sim: KubeSim, identity: string, kc: k8s.KubeConfig, source: SyntheticSource, logger: Logger = silentLogger()): Promise<RunningController> {
  const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
  const component = createRecommenderComponent({ config, logger, kubeConfig: kc, metrics, clock: Date.now }, { source });
  return startController({
    config,
    components: [component],
    kubeConfig: kc,
    metrics,
    logger: silentLogger(),
    clock: Date.now,
    schedule: { cron: 'unused', intervalMs: 500 },
    identity,
    ticker: () => intervalTicker(500),
  });
}

test(
  'leader handover: graceful and after a leader stops renewing; never two writers; the next leader resumes from checkpoints',
  { timeout: 90_000 },
  async (t) => {
    const sim = await startKubeSim({
      crdManifests: VPA_CRD_MANIFESTS,
      scenario: parseScenario(`
nodes: [{name: n, cpu: "8", memory: 32Gi}]
workloads:
  - {kind: Deployment, name: web, replicas: 2, containers: [{name: app, requests: {cpu: 250m, memory: 128Mi}}]}
  - {kind: Deployment, name: api, replicas: 1, containers: [{name: app, requests: {cpu: 100m, memory: 64Mi}}]}
`),
    });
    const running: RunningController[] = [];
    t.after(async () => {
      sim.server.faults.clear();
      await Promise.allSettled(running.map((r) => r.stop()));
      await sim.close();
    });
    const writes: RequestRecord[] = [];
    // Successful Lease writes, each with whether b still led when the server completed it.
    const leaseWrites: Array<RequestRecord & { bLeading: boolean }> = [];
    let bLeading = () => false;
    // Each replica's lists of checkpoints (what it restores when it starts leading), with the
    // lastSampleStart of every checkpoint in the store when the list was answered: nothing is
    // written between the answer and the replica's restore (the old leader has stopped writing).
    const checkpointLists: Array<{ user: string; startedAt: number; lastSamples: number[] }> = [];
    sim.server.requests.onRecord((r) => {
      if (r.verb === 'LIST' && r.resource === CHECKPOINTS && r.code < 300) {
        const lastSamples = sim.server.store
          .list(CHECKPOINTS_KEY)
          .map((c) => Date.parse(String((c as { status?: { lastSampleStart?: string } }).status?.lastSampleStart)))
          .filter(Number.isFinite);
        checkpointLists.push({ user: r.username, startedAt: r.startedAt!, lastSamples });
      }
      if (WRITE_VERBS.has(r.verb) && WRITTEN.has(r.resource)) writes.push(r); // the test's own VPA creations are filtered out below
      if (WRITE_VERBS.has(r.verb) && r.resource === 'leases' && r.code < 300) leaseWrites.push({ ...r, bLeading: bLeading() });
    });
    const admin = new k8s.KubeConfig();
    admin.loadFromString(sim.server.kubeconfig());
    const custom = admin.makeApiClient(k8s.CustomObjectsApi);
    for (const name of ['web', 'api']) {
      await custom.createNamespacedCustomObject({
        ...VPA,
        namespace: 'default',
        body: {
          apiVersion: 'autoscaling.k8s.io/v1',
          kind: 'VerticalPodAutoscaler',
          metadata: { name },
          spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, updatePolicy: { updateMode: 'Off' } },
        },
      });
    }
    const targetOf = async (name: string) =>
      ((await custom.getNamespacedCustomObject({ ...VPA, namespace: 'default', name })) as VerticalPodAutoscaler).status?.recommendation
        ?.containerRecommendations?.[0]?.target;
    const a = await account(sim, 'replica-a');
    const b = await account(sim, 'replica-b');
    const by = (user: string, after = 0) => writes.filter((w) => w.username === user && w.startedAt! >= after);

    // 1. a leads and writes; b stands by.
    const sourceA = new SyntheticSource(sim.server);
    const aLog = shutdownLog();
    const ra = await replica(sim, 'a', a.kc, sourceA, aLog.logger);
    running.push(ra);
    await until(
      'a wrote statuses and checkpoints',
      () => by(a.user).some((w) => w.resource === 'verticalpodautoscalercheckpoints') && by(a.user).some((w) => w.subresource === 'status'),
    );
    const sourceB = new SyntheticSource(sim.server);
    const rb = await replica(sim, 'b', b.kc, sourceB);
    running.push(rb);
    bLeading = () => rb.elector?.isLeader() === true;
    await delay(2 * RETRY_MS + 500);
    assert.equal(rb.elector?.isLeader(), false);
    assert.equal(by(b.user).length, 0, 'the standby wrote nothing');
    assert.equal(sourceB.cpuRanges.length, 0, 'the standby read nothing');
    const webTarget = await targetOf('web');
    assert.ok(webTarget?.cpu, 'a published a recommendation');

    // 2. Graceful: a flushes its checkpoints and releases the Lease; b takes over at once.
    const aWritesBeforeStop = by(a.user).length;
    await ra.stop();
    const aStopped = Date.now();
    // The shutdown writes the checkpoints with samples since their last write (decision 0287): none
    // when a's last loop had just written them all, which a loaded machine makes likely. Its log line
    // says how many; the request log records a request when the server has finished sending the
    // answer, which can come after the client has it: wait for those records, do not assume them.
    const flushed = aLog.written();
    assert.ok(flushed !== undefined, 'a logged its shutdown flush');
    t.diagnostic(`a's graceful shutdown wrote ${flushed} checkpoint(s)`);
    await until(
      `the shutdown's ${flushed} checkpoint write(s) in the request log`,
      () =>
        by(a.user)
          .slice(aWritesBeforeStop)
          .filter((w) => w.resource === 'verticalpodautoscalercheckpoints').length >= flushed,
    );
    const bLeads = await until('b leads', () => rb.elector?.isLeader() === true);
    // Timed by the server's request log (a's releasing write, b's acquiring write), not by when this
    // test saw b lead.
    await until("b's acquiring write is in the request log", () => leaseWrites.some((w) => w.username === b.user));
    const bAcquired = leaseWrites.find((w) => w.username === b.user)!;
    const aReleased = leaseWrites.filter((w) => w.username === a.user && w.startedAt! <= bAcquired.startedAt!).at(-1)!;
    t.diagnostic(
      `graceful handover: b acquired the Lease ${bAcquired.startedAt! - aReleased.endedAt!} ms after a released it (seen by the test after ${bLeads - aStopped} ms)`,
    );
    assert.ok(bAcquired.startedAt! - aReleased.endedAt! < LEASE_MS, 'a released Lease is taken within a retry period, not a lease duration');
    await until('b wrote', () => by(b.user).some((w) => w.subresource === 'status' || w.resource === 'verticalpodautoscalercheckpoints'));
    const aLastRange = sourceA.cpuRanges.at(-1)!;
    const bFirstRange = sourceB.cpuRanges[0]!;
    t.diagnostic(`b's first read starts ${(aLastRange.end - bFirstRange.start) / 1000} s before a's last read ended (full history: 600 s)`);
    assert.ok(bFirstRange.start >= aLastRange.end - 3000, "b resumed at a's checkpoints instead of reading the history again");
    assert.deepEqual(await targetOf('web'), webTarget, 'the same recommendation under the new leader');

    // 3. a2 stands by; b's Lease calls fail: b steps down at the renew deadline, a2 takes over after the lease duration.
    const sourceA2 = new SyntheticSource(sim.server);
    const ra2 = await replica(sim, 'a2', a.kc, sourceA2);
    running.push(ra2);
    await delay(2 * RETRY_MS);
    assert.equal(ra2.elector?.isLeader(), false);
    await delay(2500); // b writes its checkpoints again (2 s interval)
    const faultAt = Date.now();
    sim.server.addFault({ users: [b.user], resources: ['leases'], error: 500 });
    const bStepsDown = await until('b steps down', () => rb.elector?.isLeader() === false);
    const a2Leads = await until('a2 leads', () => ra2.elector?.isLeader() === true);
    t.diagnostic(`b stepped down ${bStepsDown - faultAt} ms after its Lease calls began to fail; a2 led after ${a2Leads - faultAt} ms`);
    // Timed by the server's own request log, not by when this test got round to looking (which a
    // loaded machine delays): b's last renewal was written at or before bRenewed; a2 saw it no
    // earlier, so its acquisition (written at a2Acquired) comes a full lease duration later; and b
    // had stepped down (at its renew deadline) by the time a2's acquisition was written.
    const bRenewed = Math.max(...leaseWrites.filter((w) => w.username === b.user).map((w) => w.startedAt!));
    await until("a2's acquiring write is in the request log", () => leaseWrites.some((w) => w.username === a.user && w.startedAt! > bRenewed));
    const a2Acquired = leaseWrites.find((w) => w.username === a.user && w.startedAt! > bRenewed)!;
    t.diagnostic(`a2 acquired the Lease ${a2Acquired.startedAt! - bRenewed} ms after b's last renewal`);
    assert.ok(a2Acquired.startedAt! - bRenewed >= LEASE_MS, 'a2 waited for the lease to expire (an immediate takeover would be one retry)');
    assert.equal(a2Acquired.bLeading, false, 'b had stepped down before a2 acquired the Lease');
    await until('a2 wrote', () => by(a.user, faultAt).length > 0);
    await until('a2 read usage', () => sourceA2.cpuRanges.length > 0);
    const a2FirstRange = sourceA2.cpuRanges[0]!;
    // a2 resumes from the oldest checkpoint it restored (b's last ones): it reads again from that
    // checkpoint's last sample, less one step of overlap, one of the feed's lag and at most one of
    // alignment to the step — judged by the checkpoints' content, not by when they were written (a
    // loaded machine delays writes; the old check against the write time failed under load).
    const a2List = checkpointLists.find((l) => l.user === a.user && l.startedAt >= faultAt);
    assert.ok(a2List && a2List.lastSamples.length > 0, 'a2 listed the checkpoints b left');
    const oldestRestored = Math.min(...a2List.lastSamples);
    t.diagnostic(
      `a2's first read starts ${(oldestRestored - a2FirstRange.start) / 1000} s before the oldest restored checkpoint's last sample (${(a2Leads - oldestRestored) / 1000} s before it led; full history: 600 s)`,
    );
    assert.ok(a2FirstRange.start > oldestRestored - 3 * STEP_MS, "a2 resumed at b's last checkpoints");
    assert.deepEqual(await targetOf('web'), webTarget);

    // Never two writers: sorted by start, the writers' terms follow each other without overlap.
    const sorted = writes.filter((w) => w.username !== 'kube-sim-admin').sort((x, y) => x.startedAt! - y.startedAt!);
    const terms: Array<{ user: string; first: number; last: number; count: number }> = [];
    for (const w of sorted) {
      const term = terms.at(-1);
      if (term && term.user === w.username) {
        term.last = Math.max(term.last, w.endedAt!);
        term.count++;
      } else {
        terms.push({ user: w.username, first: w.startedAt!, last: w.endedAt!, count: 1 });
      }
    }
    t.diagnostic(`write terms: ${terms.map((x) => `${x.user.split(':').pop()} x${x.count}`).join(' -> ')}`);
    assert.deepEqual(
      terms.map((x) => x.user),
      [a.user, b.user, a.user],
      'one term per leadership, no interleaving',
    );
    for (let i = 1; i < terms.length; i++) assert.ok(terms[i]!.first >= terms[i - 1]!.last, `term ${i} began after term ${i - 1}'s last write ended`);
    assert.ok(
      by(b.user).every((w) => w.endedAt! <= bStepsDown),
      'b wrote nothing after stepping down',
    );
    assert.ok(
      sorted.every((w) => w.fieldManager === 'tailor-recommender' || w.verb === 'DELETE'),
      'every replica write carries the field manager',
    );
  },
);
