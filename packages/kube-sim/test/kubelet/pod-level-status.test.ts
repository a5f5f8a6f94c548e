/**
 * The kubelet and pod-level resources (src/kubelet/pod-level-status.ts, resize-state-machine.ts):
 * from 1.36 every pod reports its own `status.allocatedResources` and `status.resources`, and a
 * pod-level resize is allocated, reported InProgress and applied as a container's is; what the real
 * v1.36.3 and v1.37.2 kubelets did (docs/kube-sim-cluster.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startPod } from '../../src/kubelet/pod-start.ts';
import { startedCheckpoint, stepResize, type ResizeContext } from '../../src/kubelet/resize-state-machine.ts';
import { podAllocatedResources, podStatusResources } from '../../src/kubelet/pod-level-status.ts';
import { podRequests } from '../../src/pod-resources.ts';
import type { Container, Pod } from '../../src/objects.ts';
import type { ServerVersion } from '../../src/server-version.ts';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const node = { nodeName: 'node-a', resizeSupport: true, hostIP: '10.0.0.1' };

function pod(podLevel: boolean, containers: Container[] = [{ name: 'app', image: 'busybox' }]): Pod {
  return {
    metadata: { name: 'pl', namespace: 'default', uid: 'u1', generation: 1 },
    spec: {
      nodeName: 'node-a',
      ...(podLevel ? { resources: { requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '400m', memory: '128Mi' } } } : {}),
      containers,
    },
    status: { phase: 'Pending', qosClass: 'Burstable' },
  };
}

function ctx(version: ServerVersion, now: number, othersCpu = 0): ResizeContext {
  return {
    nodeName: 'node-a',
    allocatable: { cpu: 2000, memory: 4 * 2 ** 30 },
    othersAllocated: { cpu: othersCpu, memory: 0 },
    memoryUsage: () => undefined,
    version,
    now,
    actuationDelayMs: 2000,
  };
}

function started(p: Pod, version: ServerVersion): Pod {
  return { ...p, status: startPod(p, node, T0, version).status };
}

function resized(p: Pod, resources: NonNullable<Pod['spec']['resources']>): Pod {
  const out = structuredClone(p);
  out.spec.resources = resources;
  out.metadata.generation = 2;
  return out;
}

const inProgress = (p: { status?: Pod['status'] }) => p.status?.conditions?.find((c) => c.type === 'PodResizeInProgress');

test('1.36+: a started pod reports its own allocatedResources and resources; 1.35 does not', () => {
  for (const version of ['1.36', '1.37'] as const) {
    const s = started(pod(true), version).status!;
    assert.deepEqual(s.allocatedResources, { cpu: '200m', memory: '64Mi' }, version);
    assert.deepEqual(s.resources, { limits: { cpu: '400m', memory: '128Mi' }, requests: { cpu: '200m', memory: '64Mi' } }, version);
  }
  const s = started(pod(true), '1.35').status!;
  assert.equal(s.allocatedResources, undefined);
  assert.equal(s.resources, undefined);
});

test('a pod without pod-level resources: its containers summed, limits only where every container has one', () => {
  const containers: Container[] = [
    { name: 'a', resources: { requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '300m', memory: '96Mi' } } },
    { name: 'b', resources: { requests: { cpu: '100m' }, limits: { cpu: '100m' } } },
  ];
  assert.deepEqual(podAllocatedResources(pod(false, containers)), { cpu: '300m', memory: '64Mi' });
  assert.deepEqual(podStatusResources(pod(false, containers), '1.36'), { limits: { cpu: '400m' }, requests: { cpu: '300m', memory: '64Mi' } });
  assert.deepEqual(podStatusResources(pod(false, [{ name: 'a', resources: { requests: { cpu: '100m' } } }]), '1.37'), { requests: { cpu: '100m' } });
});

test('pod-level requests are what the scheduler and the kubelet charge the pod', () => {
  assert.deepEqual(podRequests(pod(true, [{ name: 'app', resources: { requests: { cpu: '100m', memory: '32Mi' } } }])), { cpu: 200, memory: 64 * 2 ** 20 });
});

for (const version of ['1.36', '1.37'] as const) {
  test(`kubelet ${version}: a pod-level resize is allocated, InProgress for the actuation delay, then applied to status.resources`, () => {
    const p = started(pod(true), version);
    const asked = resized(p, { requests: { cpu: '300m', memory: '96Mi' }, limits: { cpu: '500m', memory: '160Mi' } });
    const first = stepResize(asked, startedCheckpoint(p, version), ctx(version, T0 + 1000));
    assert.deepEqual(first.status.allocatedResources, { cpu: '300m', memory: '96Mi' });
    assert.equal(inProgress(first)?.status, 'True');
    assert.equal(first.status.observedGeneration, 2);
    // 1.37 reports the allocated memory request at once; 1.36 keeps the first one.
    const memoryRequest = version === '1.37' ? '96Mi' : '64Mi';
    assert.deepEqual(first.status.resources, { limits: { cpu: '400m', memory: '128Mi' }, requests: { cpu: '200m', memory: memoryRequest } }, 'not applied yet');
    assert.equal(first.wakeAt, T0 + 3000);
    const done = stepResize({ ...asked, status: first.status }, first.checkpoint, ctx(version, T0 + 3000));
    assert.equal(inProgress(done), undefined);
    assert.deepEqual(done.status.resources, { limits: { cpu: '500m', memory: '160Mi' }, requests: { cpu: '300m', memory: memoryRequest } });
    assert.deepEqual(
      done.events.map((e) => [e.reason, e.message]),
      [['ResizeCompleted', 'Pod resize completed: {"containers":[{"name":"app","resources":{}}],"generation":2}']],
      'the summary names only the containers, as the real kubelet does',
    );
    const quiet = stepResize({ ...asked, status: done.status }, done.checkpoint, ctx(version, T0 + 10_000));
    assert.deepEqual(quiet.status, done.status, 'nothing more to do');
  });
}

test('kubelet 1.36: a pod-level resize beyond the free room is Deferred, counted by its pod-level request', () => {
  const p = started(pod(true), '1.36');
  const asked = resized(p, { requests: { cpu: '900m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } });
  const step = stepResize(asked, startedCheckpoint(p, '1.36'), ctx('1.36', T0 + 1000, 1500));
  const pending = step.status.conditions?.find((c) => c.type === 'PodResizePending');
  assert.equal(pending?.reason, 'Deferred');
  assert.equal(pending?.message, "Node didn't have enough resource: cpu, requested: 900, used: 1500, capacity: 2000");
  assert.deepEqual(step.status.allocatedResources, { cpu: '200m', memory: '64Mi' }, 'not allocated');
});
