/**
 * The executor against kube-sim over real HTTPS (client-node): decisions made by the planner from
 * pods read back from the server are carried out, and each API answer leads where
 * action-outcome.ts says: applied (events on pod and VPA, metrics, managedFields time), PDB
 * refusal (blocked, never forced), throttling (back off, nothing more sent), a vanished pod
 * (dropped quietly), a stale pod (422 invalid, reported), dry run (nothing sent).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import type { UpdateMode, VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import { Writable } from 'node:stream';
import { createLogger, silentLogger } from '../../src/observability/logger.ts';
import { decidePod } from '../../src/updater/decide-pod.ts';
import type { PodDecision } from '../../src/updater/decision.ts';
import { executePlan, type ExecutorState } from '../../src/updater/executor.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { lastUpdateTime } from '../../src/updater/pod-timing.ts';
import { serverCapabilities } from '../../src/updater/server-capabilities.ts';
import { kubeUpdaterApi } from '../../src/updater/updater-api.ts';
import { UpdaterMetrics } from '../../src/updater/updater-metrics.ts';
import { vpa as buildVpa, type RecommendationSketch } from '../builders/vpas.ts';
import { startCluster, type ClusterFixture } from 'kube-sim/test/e2e/cluster-fixture';

const RES = { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } };
const MORE_CPU: RecommendationSketch = {
  target: { cpu: '800m', memory: '256Mi' },
  lower: { cpu: '700m', memory: '200Mi' },
  upper: { cpu: '1600m', memory: '400Mi' },
};
const CAPS = serverCapabilities({ major: 1, minor: 35 });

function theVpa(mode: UpdateMode, rec = MORE_CPU): VerticalPodAutoscaler {
  const v = buildVpa({ mode, recommend: { app: rec } });
  v.metadata.namespace = 'default';
  return v;
}

async function runningPod(f: ClusterFixture, name: string): Promise<k8s.V1Pod> {
  await f.core.createNamespacedPod({
    namespace: 'default',
    body: { metadata: { name, labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: RES }] } },
  });
  await f.tick(1000);
  return f.core.readNamespacedPod({ namespace: 'default', name });
}

async function setup(t: { after(fn: () => Promise<void>): void }) {
  const f = await startCluster('1.35', [{ cpu: '4', memory: '8Gi' }]);
  t.after(() => f.close());
  const kc = new k8s.KubeConfig();
  kc.loadFromString(f.sim.server.kubeconfig());
  const registry = new Registry();
  const metrics = new UpdaterMetrics(registry);
  const deps = { api: kubeUpdaterApi(kc), logger: silentLogger(), metrics, capabilities: CAPS, instance: 'test' };
  return { f, kc, registry, metrics, deps };
}

function decide(f: ClusterFixture, pod: k8s.V1Pod, v: VerticalPodAutoscaler): PodDecision {
  return decidePod({ pod, vpa: v, workload: 'Deployment/default/web' }, { options: updaterOptions(), capabilities: CAPS, now: f.sim.cluster.clock.now() });
}

async function counter(registry: Registry, name: string, labels: Record<string, string>): Promise<number> {
  const metric = await registry.getSingleMetric(name)!.get();
  return metric.values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? 0;
}

/** The updater's events on an object: [reason, type]. */
async function updaterEvents(f: ClusterFixture, kind: string, name: string): Promise<string[][]> {
  const list = await f.core.listNamespacedEvent({ namespace: 'default', fieldSelector: `involvedObject.kind=${kind},involvedObject.name=${name}` });
  return list.items.filter((e) => e.source?.component === 'tailor-updater').map((e) => [e.reason ?? '', e.type ?? '']);
}

const podsByKey = (...pods: k8s.V1Pod[]) => new Map(pods.map((p) => [`${p.metadata!.namespace}/${p.metadata!.name}`, p]));

test('executor: a resize is sent to pods/resize with field manager tailor-updater; events on the pod and the VPA; metrics', async (t) => {
  const { f, registry, deps } = await setup(t);
  const v = theVpa('InPlaceOrRecreate');
  const pod = await runningPod(f, 'web-1');
  const d = decide(f, pod, v);
  assert.equal(`${d.action} ${d.reason}`, 'ResizeInPlace OutsideBounds');
  const state: ExecutorState = { backoffUntil: 0 };
  const results = await executePlan({ decisions: [d], pods: podsByKey(pod), vpaOf: () => v, now: f.sim.cluster.clock.now(), state }, deps);
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['applied'],
  );
  await f.tick(5000);
  const after = await f.core.readNamespacedPod({ namespace: 'default', name: 'web-1' });
  assert.equal(after.status!.containerStatuses![0]!.resources!.requests!.cpu, '800m');
  assert.equal(after.status!.containerStatuses![0]!.restartCount, 0, 'no restart');
  assert.notEqual(lastUpdateTime(after), undefined, 'the resize left its time in managedFields');
  assert.deepEqual(await updaterEvents(f, 'Pod', 'web-1'), [['ResizedInPlace', 'Normal']]);
  const vpaEvents = await f.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.kind=VerticalPodAutoscaler' });
  assert.deepEqual(
    vpaEvents.items.map((e) => [e.involvedObject.name, e.reason, e.message?.split(':')[0]]),
    [['web', 'ResizedInPlace', 'pod web-1']],
  );
  assert.equal(await counter(registry, 'tailor_updater_resizes_total', { path: 'in-place', outcome: 'applied' }), 1);
  assert.equal(await counter(registry, 'tailor_updater_decisions_total', { action: 'ResizeInPlace', reason: 'OutsideBounds' }), 1);
});

test('executor: a PDB refusal (429) is reported as blocked and never forced; a later loop evicts once the budget allows', async (t) => {
  const { f, kc, registry, deps } = await setup(t);
  const policy = kc.makeApiClient(k8s.PolicyV1Api);
  await policy.createNamespacedPodDisruptionBudget({
    namespace: 'default',
    body: { metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
  });
  const v = theVpa('Recreate');
  const pod = await runningPod(f, 'web-1');
  await f.tick(1000);
  const d = decide(f, pod, v);
  assert.equal(`${d.action} ${d.reason}`, 'Evict OutsideBounds');
  const state: ExecutorState = { backoffUntil: 0 };
  const first = await executePlan({ decisions: [d], pods: podsByKey(pod), vpaOf: () => v, now: f.sim.cluster.clock.now(), state }, deps);
  assert.deepEqual(
    first.map((r) => r.outcome),
    ['blocked'],
  );
  assert.match(first[0]!.detail!, /disruption budget/);
  assert.equal(state.backoffUntil, 0, 'a PDB refusal is no reason to stop other writes');
  const still = await f.core.readNamespacedPod({ namespace: 'default', name: 'web-1' });
  assert.equal(still.metadata!.deletionTimestamp, undefined, 'not deleted, not forced');
  assert.deepEqual(await updaterEvents(f, 'Pod', 'web-1'), [['EvictionBlocked', 'Normal']]);
  assert.deepEqual(await updaterEvents(f, 'VerticalPodAutoscaler', 'web'), [['EvictionBlocked', 'Normal']]);

  await policy.patchNamespacedPodDisruptionBudget(
    { namespace: 'default', name: 'web', body: { spec: { minAvailable: 0 } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  await f.tick(1000);
  const second = await executePlan({ decisions: [decide(f, still, v)], pods: podsByKey(still), vpaOf: () => v, now: f.sim.cluster.clock.now(), state }, deps);
  assert.deepEqual(
    second.map((r) => r.outcome),
    ['applied'],
  );
  await f.tick(1000);
  const left = await f.core.listNamespacedPod({ namespace: 'default' });
  assert.deepEqual(
    left.items.filter((p) => !p.metadata!.deletionTimestamp).map((p) => p.metadata!.name),
    [],
  );
  assert.equal(await counter(registry, 'tailor_updater_evictions_total', { outcome: 'blocked' }), 1);
  assert.equal(await counter(registry, 'tailor_updater_evictions_total', { outcome: 'applied' }), 1);
});

test('executor: throttled (429 Retry-After 30 s) backs off: nothing more is sent until then', async (t) => {
  const { f, registry, deps } = await setup(t);
  const v = theVpa('InPlaceOrRecreate');
  const pods = [await runningPod(f, 'web-1'), await runningPod(f, 'web-2')];
  const remove = f.sim.server.addFault({ verbs: ['patch'], resources: ['pods'], subresources: ['resize'], error: 429, retryAfterSeconds: 30, times: 1 });
  t.after(remove);
  const now = f.sim.cluster.clock.now();
  const state: ExecutorState = { backoffUntil: 0 };
  const decisions = pods.map((p) => decide(f, p, v));
  // one at a time, so the second action starts after the first was throttled
  const results = await executePlan({ decisions, pods: podsByKey(...pods), vpaOf: () => v, now, state }, { ...deps, concurrency: 1 });
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['throttled', 'skippedBackoff'],
  );
  assert.equal(state.backoffUntil, now + 30_000);
  assert.equal(await counter(registry, 'tailor_updater_backoff_until_seconds', {}), (now + 30_000) / 1000);
  const later = await executePlan({ decisions, pods: podsByKey(...pods), vpaOf: () => v, now: now + 30_000, state }, deps);
  assert.deepEqual(
    later.map((r) => r.outcome),
    ['applied', 'applied'],
  );
});

test('executor: a pod deleted meanwhile is dropped quietly; a pod changed meanwhile fails the JSON Patch test (422) and is reported', async (t) => {
  const { f, deps } = await setup(t);
  const v = theVpa('InPlaceOrRecreate');
  const gone = await runningPod(f, 'web-1');
  const stale = await runningPod(f, 'web-2');
  const dGone = decide(f, gone, v);
  const dStale = decide(f, stale, v);
  await f.core.deleteNamespacedPod({ namespace: 'default', name: 'web-1', gracePeriodSeconds: 0 });
  // the pod as the planner saw it names its container differently from the stored one
  const staleView: k8s.V1Pod = JSON.parse(JSON.stringify(stale)) as k8s.V1Pod;
  staleView.spec!.containers[0]!.name = 'renamed';
  dStale.changes[0]!.containerName = 'renamed';
  const results = await executePlan(
    { decisions: [dGone, dStale], pods: podsByKey(gone, staleView), vpaOf: () => v, now: f.sim.cluster.clock.now(), state: { backoffUntil: 0 } },
    deps,
  );
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['gone', 'invalid'],
  );
  assert.deepEqual(await updaterEvents(f, 'Pod', 'web-1'), [], 'no events for a vanished pod');
  assert.deepEqual(await updaterEvents(f, 'Pod', 'web-2'), [['ResizeRejected', 'Warning']]);
  const unchanged = await f.core.readNamespacedPod({ namespace: 'default', name: 'web-2' });
  assert.equal(unchanged.spec!.containers[0]!.resources!.requests!.cpu, '500m');
});

test('executor: dry run logs and exports the plan and sends nothing', async (t) => {
  const { f, registry, deps } = await setup(t);
  const v = theVpa('InPlaceOrRecreate');
  const pod = await runningPod(f, 'web-1');
  const d = decide(f, pod, v);
  const results = await executePlan(
    { decisions: [d], pods: podsByKey(pod), vpaOf: () => v, now: f.sim.cluster.clock.now(), state: { backoffUntil: 0 } },
    { ...deps, dryRun: true },
  );
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['dryRun'],
  );
  assert.equal(await counter(registry, 'tailor_updater_planned_actions', { action: 'ResizeInPlace', reason: 'OutsideBounds' }), 1);
  assert.equal(await counter(registry, 'tailor_updater_planned_actions', { action: 'Wait', reason: 'DisruptionWindow' }), 0);
  // The cpu part goes ahead while the memory restart waits for the window: counted under both.
  const split: PodDecision = { ...d, waiting: { reason: 'DisruptionWindow', message: 'outside the disruption window', changes: [] } };
  await executePlan(
    { decisions: [split], pods: podsByKey(pod), vpaOf: () => v, now: f.sim.cluster.clock.now(), state: { backoffUntil: 0 } },
    { ...deps, dryRun: true },
  );
  assert.equal(await counter(registry, 'tailor_updater_planned_actions', { action: 'ResizeInPlace', reason: 'OutsideBounds' }), 1);
  assert.equal(await counter(registry, 'tailor_updater_planned_actions', { action: 'Wait', reason: 'DisruptionWindow' }), 1);
  const after = await f.core.readNamespacedPod({ namespace: 'default', name: 'web-1' });
  assert.equal(after.spec!.containers[0]!.resources!.requests!.cpu, '500m');
  assert.deepEqual(await updaterEvents(f, 'Pod', 'web-1'), []);
});

test('executor: a wait is an info line when it starts, a debug line while it lasts (its message moving on), and said again for another reason', async () => {
  const levels: Array<[number, string]> = [];
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) {
          const o = JSON.parse(l) as { level: number; msg: string };
          levels.push([o.level, o.msg]);
        }
        done();
      },
    }),
  });
  const wait = (message: string, reason: PodDecision['reason'] = 'Cooldown'): PodDecision => ({
    namespace: 'default',
    podName: 'web-1',
    workload: 'Deployment/default/web',
    action: 'Wait',
    reason,
    message,
    changes: [],
    disruptive: false,
    urgent: false,
    scaleUp: false,
    difference: 0,
    hpaExcluded: [],
    notes: [],
  });
  const state: ExecutorState = { backoffUntil: 0 };
  const api = new Proxy({}, { get: () => () => assert.fail('a wait sends nothing') }) as never;
  const run = (d: PodDecision[]) => executePlan({ decisions: d, pods: new Map(), vpaOf: () => undefined, now: 0, state }, { api, logger, capabilities: CAPS });
  await run([wait('changed 64 s ago; cooldown 15 min')]);
  await run([wait('changed 74 s ago; cooldown 15 min')]);
  await run([wait('changed 84 s ago; cooldown 15 min')]);
  await run([]);
  await run([wait('changed 10 s ago; cooldown 15 min')]);
  await run([wait('outside the disruption window', 'DisruptionWindow')]);
  assert.deepEqual(
    levels.map(([level]) => level),
    [30, 20, 20, 30, 30],
  );
});
