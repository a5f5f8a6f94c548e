/**
 * The planner's output against kube-sim (a strict simulated API server and kubelet): pods are read
 * back through @kubernetes/client-node (real server-shaped objects, timestamps as Dates), the
 * planned resize is sent as built by `resizeRequest` through `patchNamespacedPodResize` with the
 * JSON Patch content type, and the resize is followed with `readResizeState` and `decidePod`.
 * This is not the executor: the test sends the one request itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { decidePod } from '../../src/updater/decide-pod.ts';
import type { PodDecision } from '../../src/updater/decision.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { resizeRequest } from '../../src/updater/resize-patch.ts';
import { readResizeState } from '../../src/updater/resize-state.ts';
import { serverCapabilities } from '../../src/updater/server-capabilities.ts';
import type { PodUsage } from '../../src/updater/container-usage.ts';
import type { UpdateMode } from '../../src/api/vpa.ts';
import { vpa, type RecommendationSketch } from '../builders/vpas.ts';
import { appPod, JSON_PATCH, startCluster, type ClusterFixture } from 'kube-sim/test/e2e/cluster-fixture';

const RES = { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } };
type Version = '1.33' | '1.35';

function decideNow(f: ClusterFixture, version: Version, pod: V1Pod, mode: UpdateMode, app: RecommendationSketch, usage?: PodUsage): PodDecision {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return decidePod(
    { pod, vpa: vpa({ mode, recommend: { app } }), workload: 'Deployment/default/web', ...(usage ? { usage } : {}) },
    { options: updaterOptions(), capabilities: serverCapabilities({ major, minor }), now: f.sim.cluster.clock.now() },
  );
}

async function send(f: ClusterFixture, version: Version, pod: V1Pod, d: PodDecision): Promise<void> {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  const req = resizeRequest(pod, d.changes, serverCapabilities({ major, minor }));
  assert.equal(req.subresource, 'resize');
  await f.core.patchNamespacedPodResize({ namespace: req.namespace, name: req.name, body: req.patch, fieldManager: 'tailor-updater' }, JSON_PATCH);
}

async function runningPod(f: ClusterFixture, name: string, resources = RES): Promise<V1Pod> {
  await f.core.createNamespacedPod({ namespace: 'default', body: appPod(name, resources) });
  await f.tick(1000);
  return f.core.readNamespacedPod({ namespace: 'default', name });
}

const read = (f: ClusterFixture, name: string) => f.core.readNamespacedPod({ namespace: 'default', name });

for (const version of ['1.33', '1.35'] as const) {
  test(`kube-sim ${version}: a planned resize is accepted, followed while in progress, and settles within bounds`, async (t) => {
    const f = await startCluster(version, [{ cpu: '4', memory: '8Gi' }]);
    t.after(() => f.close());
    const rec = { target: { cpu: '800m', memory: '256Mi' }, lower: { cpu: '700m', memory: '200Mi' }, upper: { cpu: '1600m', memory: '400Mi' } };
    let pod = await runningPod(f, 'web');
    const d = decideNow(f, version, pod, 'InPlaceOrRecreate', rec);
    assert.equal(`${d.action} ${d.reason}`, 'ResizeInPlace OutsideBounds', d.message);
    await send(f, version, pod, d);
    await f.tick(0);
    pod = await read(f, 'web');
    assert.equal(readResizeState(pod).phase, 'InProgress');
    assert.equal(decideNow(f, version, pod, 'InPlaceOrRecreate', rec).reason, 'ResizeInProgress');
    await f.tick(5000);
    pod = await read(f, 'web');
    assert.equal(readResizeState(pod).phase, 'None');
    assert.deepEqual(JSON.parse(JSON.stringify(pod.status!.containerStatuses![0]!.resources)), {
      requests: { cpu: '800m', memory: '256Mi' },
      limits: { cpu: '1600m', memory: '512Mi' },
    });
    assert.equal(decideNow(f, version, pod, 'InPlaceOrRecreate', rec).reason, 'WithinBounds');
  });

  test(`kube-sim ${version}: Infeasible is read from the kubelet's condition; InPlaceOrRecreate falls back, InPlace sends a smaller resize`, async (t) => {
    const f = await startCluster(version, [{ cpu: '2', memory: '8Gi' }]);
    t.after(() => f.close());
    const big = { target: { cpu: '3', memory: '256Mi' }, lower: { cpu: '2500m', memory: '200Mi' } };
    let pod = await runningPod(f, 'web', { requests: { cpu: '1500m', memory: '256Mi' }, limits: { cpu: '1500m', memory: '256Mi' } });
    const d = decideNow(f, version, pod, 'InPlace', big);
    assert.equal(d.action, 'ResizeInPlace');
    await send(f, version, pod, d);
    await f.tick(0);
    pod = await read(f, 'web');
    const state = readResizeState(pod);
    assert.equal(state.phase, 'Infeasible');
    assert.match(state.message!, /^Node didn't have enough capacity: cpu, requested: 3000, capacity: 2000/);
    assert.equal(typeof state.since, 'number');
    assert.equal(decideNow(f, version, pod, 'InPlaceOrRecreate', big).reason, 'FallbackInfeasible');
    assert.equal(decideNow(f, version, pod, 'InPlace', big).reason, 'ResizeInfeasible');
    const fits = { target: { cpu: '1800m', memory: '256Mi' }, lower: { cpu: '1700m', memory: '200Mi' } };
    const smaller = decideNow(f, version, pod, 'InPlace', fits);
    assert.equal(`${smaller.action} ${smaller.reason}`, 'ResizeInPlace ResizeSuperseded');
    await send(f, version, pod, smaller);
    await f.tick(5000);
    pod = await read(f, 'web');
    assert.equal(readResizeState(pod).phase, 'None');
    assert.equal(pod.status!.containerStatuses![0]!.resources!.requests!.cpu, '1800m');
    assert.equal(pod.status!.qosClass, 'Guaranteed');
  });
}

test('kube-sim 1.33: a memory decrease is planned as a request-only change, which the server accepts', async (t) => {
  const f = await startCluster('1.33', [{ cpu: '4', memory: '8Gi' }]);
  t.after(() => f.close());
  let pod = await runningPod(f, 'web');
  const lessMemory = { target: { cpu: '500m', memory: '128Mi' }, upper: { cpu: '1', memory: '200Mi' } };
  const d = decideNow(f, '1.33', pod, 'InPlace', lessMemory, { app: { memoryPeakBytes: 100 * 1024 * 1024 } });
  assert.equal(d.action, 'ResizeInPlace', d.message);
  assert.deepEqual(d.changes[0]!.to.limits, { cpu: 1000, memory: 512 * 1024 * 1024 }, 'the memory limit is kept on 1.33');
  await send(f, '1.33', pod, d);
  await f.tick(5000);
  pod = await read(f, 'web');
  assert.deepEqual(JSON.parse(JSON.stringify(pod.status!.containerStatuses![0]!.resources)), {
    requests: { cpu: '500m', memory: '128Mi' },
    limits: { cpu: '1', memory: '512Mi' },
  });
});

test('kube-sim 1.32 (feature gate on): the resize is a JSON Patch of the pod itself, followed through status.resize', async (t) => {
  const f = await startCluster('1.32', [{ cpu: '2', memory: '8Gi' }]);
  t.after(() => f.close());
  const capabilities = serverCapabilities({ major: 1, minor: 32 }, true);
  const decide = (pod: V1Pod, app: RecommendationSketch, mode: UpdateMode = 'InPlaceOrRecreate') =>
    decidePod(
      { pod, vpa: vpa({ mode, recommend: { app } }), workload: 'Deployment/default/web' },
      { options: updaterOptions(), capabilities, now: f.sim.cluster.clock.now() },
    );
  let pod = await runningPod(f, 'web');
  const big = { target: { cpu: '1', memory: '256Mi' }, lower: { cpu: '900m', memory: '200Mi' } };
  const d = decide(pod, big);
  assert.equal(d.action, 'ResizeInPlace', d.message);
  const req = resizeRequest(pod, d.changes, capabilities);
  assert.equal(req.subresource, undefined, 'before 1.33 the pod itself is patched');
  await f.core.patchNamespacedPod({ namespace: req.namespace, name: req.name, body: req.patch }, JSON_PATCH);
  await f.tick(0);
  pod = await read(f, 'web');
  assert.equal(pod.status?.resize, 'InProgress');
  assert.deepEqual(readResizeState(pod), { phase: 'InProgress', since: undefined, message: undefined, source: 'legacy' });
  assert.equal(decide(pod, big).reason, 'ResizeInProgress');
  await f.tick(5000);
  pod = await read(f, 'web');
  assert.equal(readResizeState(pod).phase, 'None');
  assert.equal(pod.status!.containerStatuses![0]!.resources!.requests!.cpu, '1');
  assert.equal(decide(pod, big).reason, 'WithinBounds');
});

test('kube-sim 1.35: a restarting resize restarts exactly the container whose resizePolicy asks for it', async (t) => {
  const f = await startCluster('1.35', [{ cpu: '4', memory: '8Gi' }]);
  t.after(() => f.close());
  const res = { requests: { cpu: '200m', memory: '256Mi' }, limits: { memory: '512Mi' } };
  await f.core.createNamespacedPod({
    namespace: 'default',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'jvm' },
      spec: {
        containers: [
          { name: 'app', image: 'app:1', resources: res, resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] },
          { name: 'log', image: 'log:1', resources: res },
        ],
      },
    },
  });
  await f.tick(1000);
  let pod = await read(f, 'jvm');
  const more = { target: { cpu: '200m', memory: '400Mi' }, lower: { cpu: '100m', memory: '350Mi' } };
  const d = decidePod(
    {
      pod,
      vpa: vpa({ mode: 'InPlace', annotations: { 'tailor.dev/allow-container-restart': 'true' }, recommend: { app: more, log: more } }),
      workload: 'Deployment/default/jvm',
    },
    { options: updaterOptions(), capabilities: serverCapabilities({ major: 1, minor: 35 }), now: f.sim.cluster.clock.now() },
  );
  assert.equal(d.action, 'ResizeWithRestart', d.message);
  assert.deepEqual(
    d.changes.map((c) => [c.containerName, c.restart]),
    [
      ['app', true],
      ['log', false],
    ],
  );
  await send(f, '1.35', pod, d);
  await f.tick(5000);
  pod = await read(f, 'jvm');
  const restarts = Object.fromEntries(pod.status!.containerStatuses!.map((s) => [s.name, s.restartCount]));
  assert.deepEqual(restarts, { app: 1, log: 0 });
  assert.deepEqual(
    pod.status!.containerStatuses!.map((s) => s.resources?.requests?.memory),
    ['400Mi', '400Mi'],
  );
});
