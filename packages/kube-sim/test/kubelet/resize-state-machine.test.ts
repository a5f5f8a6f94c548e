import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stepResize, startedCheckpoint, type ResizeCheckpoint, type ResizeContext } from '../../src/kubelet/resize-state-machine.ts';
import { startPod } from '../../src/kubelet/pod-start.ts';
import type { Container, Pod } from '../../src/objects.ts';
import type { ServerVersion } from '../../src/server-version.ts';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const node = { nodeName: 'node-a', resizeSupport: true, hostIP: '10.0.0.1' };

function runningPod(version: ServerVersion, resizePolicy?: Container['resizePolicy']): { pod: Pod; checkpoint: ResizeCheckpoint } {
  const pod: Pod = {
    metadata: { name: 'web-0', namespace: 'default', uid: 'u1', generation: 1 },
    spec: {
      nodeName: 'node-a',
      containers: [
        {
          name: 'app',
          image: 'nginx',
          resources: { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
          ...(resizePolicy ? { resizePolicy } : {}),
        },
      ],
    },
    status: { phase: 'Pending', qosClass: 'Burstable' },
  };
  pod.status = startPod(pod, node, T0, version).status;
  return { pod, checkpoint: startedCheckpoint(pod, version) };
}

function resized(pod: Pod, resources: Container['resources']): Pod {
  const out = structuredClone(pod);
  out.spec.containers[0]!.resources = resources;
  out.metadata.generation = (pod.metadata.generation ?? 1) + 1;
  return out;
}

function ctx(version: ServerVersion, now: number, othersCpu = 0, usage?: number): ResizeContext {
  return {
    nodeName: 'node-a',
    allocatable: { cpu: 1930, memory: 4 * 2 ** 30 },
    othersAllocated: { cpu: othersCpu, memory: 0 },
    memoryUsage: () => usage,
    version,
    now,
    actuationDelayMs: 5000,
  };
}

const condition = (pod: { status?: Pod['status'] }, type: string) => pod.status?.conditions?.find((c) => c.type === type);

for (const version of ['1.33', '1.35'] as const) {
  test(`kubelet ${version}: a resize that fits is InProgress until actuation ends, then applied`, () => {
    const { pod, checkpoint } = runningPod(version);
    const want = { requests: { cpu: '800m', memory: '300Mi' }, limits: { cpu: '1500m', memory: '600Mi' } };
    const asked = resized(pod, want);
    const first = stepResize(asked, checkpoint, ctx(version, T0 + 1000));
    const cs = first.status.containerStatuses![0]!;
    assert.deepEqual(cs.allocatedResources, { cpu: '800m', memory: '300Mi' });
    assert.deepEqual(cs.resources, { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } }, 'not applied yet');
    const progress = condition({ status: first.status }, 'PodResizeInProgress');
    assert.equal(progress?.status, 'True');
    assert.equal(progress?.reason, undefined);
    assert.equal(progress?.observedGeneration, 2);
    assert.equal(first.status.observedGeneration, 2);
    assert.equal(first.wakeAt, T0 + 6000);
    if (version === '1.35') {
      assert.deepEqual(
        first.events.map((e) => e.reason),
        ['ResizeStarted'],
      );
      assert.match(first.events[0]!.message, /^Pod resize started: \{"containers":\[\{"name":"app","resources":\{"requests":\{"cpu":"800m","memory":"300Mi"\}/);
    } else {
      assert.deepEqual(first.events, [], '1.33 kubelets record no resize events');
    }

    const midway = stepResize({ ...asked, status: first.status }, first.checkpoint, ctx(version, T0 + 3000));
    assert.equal(condition({ status: midway.status }, 'PodResizeInProgress')?.status, 'True');
    assert.deepEqual(midway.events, []);

    const done = stepResize({ ...asked, status: midway.status }, midway.checkpoint, ctx(version, T0 + 6000));
    assert.deepEqual(done.status.containerStatuses![0]!.resources, want);
    assert.equal(condition({ status: done.status }, 'PodResizeInProgress'), undefined);
    assert.deepEqual(
      done.events.map((e) => e.reason),
      version === '1.35' ? ['ResizeCompleted'] : [],
    );
    assert.equal(done.status.containerStatuses![0]!.restartCount, 0);
  });

  test(`kubelet ${version}: a resize larger than the node is Infeasible`, () => {
    const { pod, checkpoint } = runningPod(version);
    const step = stepResize(resized(pod, { requests: { cpu: '2500m', memory: '256Mi' }, limits: { cpu: '3', memory: '512Mi' } }), checkpoint, ctx(version, T0));
    const pending = condition({ status: step.status }, 'PodResizePending');
    assert.equal(pending?.reason, 'Infeasible');
    assert.equal(pending?.message, "Node didn't have enough capacity: cpu, requested: 2500, capacity: 1930");
    assert.equal(pending?.observedGeneration, 2);
    assert.deepEqual(step.status.containerStatuses![0]!.allocatedResources, { cpu: '500m', memory: '256Mi' }, 'allocation unchanged');
    assert.deepEqual(step.events, []);
  });

  test(`kubelet ${version}: a resize that fits the node but not beside other pods is Deferred, then retried`, () => {
    const { pod, checkpoint } = runningPod(version);
    const asked = resized(pod, { requests: { cpu: '1500m', memory: '256Mi' }, limits: { cpu: '2', memory: '512Mi' } });
    const step = stepResize(asked, checkpoint, ctx(version, T0, 1450));
    const pending = condition({ status: step.status }, 'PodResizePending');
    assert.equal(pending?.reason, 'Deferred');
    assert.equal(pending?.message, "Node didn't have enough resource: cpu, requested: 1500, used: 1450, capacity: 1930");
    const retried = stepResize({ ...asked, status: step.status }, step.checkpoint, ctx(version, T0 + 1000, 400));
    assert.equal(condition({ status: retried.status }, 'PodResizePending'), undefined);
    assert.equal(condition({ status: retried.status }, 'PodResizeInProgress')?.status, 'True');
    assert.deepEqual(retried.status.containerStatuses![0]!.allocatedResources, { cpu: '1500m', memory: '256Mi' });
  });

  test(`kubelet ${version}: memory resizePolicy RestartContainer restarts the container`, () => {
    const { pod, checkpoint } = runningPod(version, [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }]);
    const want = { requests: { cpu: '500m', memory: '200Mi' }, limits: { cpu: '1', memory: '400Mi' } };
    const step = stepResize(resized(pod, want), checkpoint, ctx(version, T0 + 2000));
    const cs = step.status.containerStatuses![0]!;
    assert.equal(cs.restartCount, 1);
    assert.equal(cs.lastState?.terminated?.reason, 'Completed');
    assert.deepEqual(cs.resources, want);
    const killing = step.events.find((e) => e.reason === 'Killing');
    assert.equal(killing?.message, 'Container app resize requires restart');
    assert.equal(killing?.involvedObject.fieldPath, 'spec.containers{app}');
    assert.deepEqual(
      step.events.map((e) => e.reason),
      version === '1.35' ? ['Killing', 'ResizeStarted', 'ResizeCompleted'] : ['Killing'],
    );
    assert.equal(condition({ status: step.status }, 'PodResizeInProgress'), undefined);
  });
}

test('kubelet 1.35: a memory limit decrease below usage stays InProgress with reason Error, then completes when usage drops', () => {
  const { pod, checkpoint } = runningPod('1.35');
  const asked = resized(pod, { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '300Mi' } });
  const step = stepResize(asked, checkpoint, ctx('1.35', T0, 0, 400 * 2 ** 20));
  const progress = condition({ status: step.status }, 'PodResizeInProgress');
  assert.equal(progress?.reason, 'Error');
  assert.equal(progress?.message, `attempting to set container "app" memory limit (${300 * 2 ** 20}) below current usage (${400 * 2 ** 20})`);
  const later = stepResize({ ...asked, status: step.status }, step.checkpoint, ctx('1.35', T0 + 1000, 0, 200 * 2 ** 20));
  assert.equal(condition({ status: later.status }, 'PodResizeInProgress')?.reason, undefined);
  const done = stepResize({ ...asked, status: later.status }, later.checkpoint, ctx('1.35', T0 + 6000, 0, 200 * 2 ** 20));
  assert.equal(done.status.containerStatuses![0]!.resources?.limits?.memory, '300Mi');
});

test('kubelet 1.32: legacy status.resize goes InProgress then is cleared; Infeasible and Deferred are reported there', () => {
  const { pod, checkpoint } = runningPod('1.32');
  assert.equal(pod.status!.observedGeneration, undefined);
  const asked = resized(pod, { requests: { cpu: '800m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } });
  const first = stepResize(asked, checkpoint, ctx('1.32', T0));
  assert.equal(first.status.resize, 'InProgress');
  assert.equal(
    first.status.conditions?.some((c) => c.type.startsWith('PodResize')),
    false,
  );
  const done = stepResize({ ...asked, status: first.status }, first.checkpoint, ctx('1.32', T0 + 5000));
  assert.equal(done.status.resize, undefined);
  assert.equal(done.status.containerStatuses![0]!.resources?.requests?.cpu, '800m');

  const infeasible = stepResize(resized(pod, { requests: { cpu: '3', memory: '256Mi' }, limits: { cpu: '3', memory: '512Mi' } }), checkpoint, ctx('1.32', T0));
  assert.equal(infeasible.status.resize, 'Infeasible');
  const deferred = stepResize(
    resized(pod, { requests: { cpu: '1', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } }),
    checkpoint,
    ctx('1.32', T0, 1000),
  );
  assert.equal(deferred.status.resize, 'Deferred');
});

test('kubelet: reverting a pending resize to the allocated values drops PodResizePending', () => {
  const { pod, checkpoint } = runningPod('1.35');
  const step = stepResize(resized(pod, { requests: { cpu: '2500m', memory: '256Mi' }, limits: { cpu: '3', memory: '512Mi' } }), checkpoint, ctx('1.35', T0));
  const reverted = resized(pod, pod.spec.containers[0]!.resources);
  const next = stepResize({ ...reverted, status: step.status }, step.checkpoint, ctx('1.35', T0 + 1000));
  assert.equal(condition({ status: next.status }, 'PodResizePending'), undefined);
  assert.deepEqual(next.events, []);
});
