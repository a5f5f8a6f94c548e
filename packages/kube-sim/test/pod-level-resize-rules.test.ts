/**
 * Resizing pods with pod-level resources (src/pod-level-resize-rules.ts, through validateResize):
 * the answers of the real 1.35.4, 1.36.3 and 1.37.2 (fidelity corpus, corpus-pod-level.ts) on
 * pods other than the corpus's fixtures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateResize } from '../src/resize-rules.ts';
import { defaultPodLevelResources, podLevelSpecErrors } from '../src/pod-level-resize-rules.ts';
import { computeQosClass, computeQosClassByContainer } from '../src/qos.ts';
import { podQosClass } from '../src/apiserver/pod-qos.ts';
import type { Pod, ResourceRequirements } from '../src/objects.ts';
import type { ServerVersion } from '../src/server-version.ts';

/** A running Burstable pod `db-0` with pod-level requests 1 cpu / 1Gi and limits 2 / 2Gi; its container `db` asks 500m / 256Mi. */
function podLevel(container: ResourceRequirements | undefined = { requests: { cpu: '500m', memory: '256Mi' } }): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'db-0', namespace: 'default', generation: 3, uid: 'u1' },
    spec: {
      nodeName: 'node-a',
      resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '2', memory: '2Gi' } },
      containers: [{ name: 'db', image: 'postgres', ...(container ? { resources: container } : {}) }],
    },
    status: {
      phase: 'Running',
      qosClass: 'Burstable',
      containerStatuses: [{ name: 'db', ready: true, restartCount: 0, state: { running: {} }, resources: container ?? {} }],
    },
  };
}

function withPodLevel(pod: Pod, resources: ResourceRequirements | undefined): Pod {
  const out = structuredClone(pod);
  if (resources === undefined) delete out.spec.resources;
  else out.spec.resources = resources;
  return out;
}

const refused = (pod: Pod, after: Pod, version: ServerVersion) => {
  const outcome = validateResize(pod, after, version);
  assert.equal(outcome.ok, false, `${version}: expected a refusal`);
  return outcome.ok ? undefined : outcome.status;
};

const GATE_OFF =
  '[]: Forbidden: resize of pods with pod-level resources is forbidden when InPlacePodLevelResourcesVerticalScalingEnabled feature gate is disabled';

test('1.36 and 1.37 resize the pod-level resources in place: taken from the request (canonical), generation + 1', () => {
  for (const version of ['1.36', '1.37'] as const) {
    const outcome = validateResize(
      podLevel(),
      withPodLevel(podLevel(), { requests: { cpu: '1500m', memory: '1536Mi' }, limits: { cpu: '3000m', memory: '3072Mi' } }),
      version,
    );
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.status.message);
    assert.deepEqual(outcome.pod.spec.resources, { requests: { cpu: '1500m', memory: '1536Mi' }, limits: { cpu: '3', memory: '3Gi' } }, version);
    assert.equal(outcome.pod.metadata.generation, 4, version);
  }
});

test('1.35 refuses any resize of such a pod, its own and its containers', () => {
  const status = refused(podLevel(), withPodLevel(podLevel(), { requests: { cpu: '1500m', memory: '1Gi' }, limits: { cpu: '2', memory: '2Gi' } }), '1.35');
  assert.equal(status?.message, `Pod "db-0" is invalid: ${GATE_OFF}`);
  assert.deepEqual(
    status?.details?.causes?.map((c) => c.field),
    ['[]'],
  );
  const container = podLevel();
  container.spec.containers[0]!.resources = { requests: { cpu: '600m', memory: '256Mi' } };
  assert.equal(refused(podLevel(), container, '1.35')?.message, `Pod "db-0" is invalid: ${GATE_OFF}`);
});

test('1.35 drops pod-level resources added by a resize: 200, the pod as it was', () => {
  const plain = withPodLevel(podLevel({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }), undefined);
  plain.status!.qosClass = 'Guaranteed';
  const outcome = validateResize(plain, withPodLevel(plain, { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }), '1.35');
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.status.message);
  assert.equal(outcome.pod.spec.resources, undefined);
  assert.equal(outcome.pod.metadata.generation, 3);
  const added = validateResize(plain, withPodLevel(plain, { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }), '1.36');
  assert.ok(added.ok);
  assert.equal(added.pod.metadata.generation, 4, '1.36 takes them');
});

test("a container's limit above the pod-level limit, on every version (1.35 also says the gate is off)", () => {
  const after = structuredClone(podLevel());
  after.spec.containers[0]!.resources = { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '2500m', memory: '256Mi' } };
  const limitError = 'spec.resources.containers[0][cpu].limits: Invalid value: "2500m": must be less than or equal to pod limits of 2';
  assert.equal(refused(podLevel(), after, '1.36')?.message, `Pod "db-0" is invalid: ${limitError}`);
  assert.equal(refused(podLevel(), after, '1.35')?.message, `Pod "db-0" is invalid: [${limitError}, ${GATE_OFF}]`);
});

test("pod-level requests below the aggregate of the containers (sidecar included, summed in the first one's format)", () => {
  const pod = podLevel();
  pod.spec.initContainers = [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always', resources: { requests: { cpu: '600m', memory: '512Mi' } } }];
  pod.status!.initContainerStatuses = [{ name: 'proxy', ready: true, restartCount: 0, state: { running: {} }, resources: {} }];
  const status = refused(pod, withPodLevel(pod, { requests: { cpu: '1', memory: '512Mi' }, limits: { cpu: '2', memory: '2Gi' } }), '1.36');
  assert.equal(
    status?.message,
    'Pod "db-0" is invalid: [spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 1100m, ' +
      'spec.resources.requests[memory]: Invalid value: "512Mi": must be greater than or equal to aggregate container requests of 768Mi]',
  );
});

test('pod-level requests above the pod-level limits', () => {
  assert.deepEqual(podLevelSpecErrors(withPodLevel(podLevel(), { requests: { cpu: '3', memory: '1Gi' }, limits: { cpu: '2', memory: '2Gi' } })), [
    { type: 'FieldValueInvalid', field: 'spec.resources.requests', value: '3', detail: 'must be less than or equal to cpu limit of 2' },
  ]);
});

test('the QoS class comes from the pod-level resources: requests raised to the limits would make it Guaranteed', () => {
  const status = refused(podLevel(), withPodLevel(podLevel(), { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '2', memory: '2Gi' } }), '1.36');
  assert.equal(status?.message, 'Pod "db-0" is invalid: spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing');
  const guaranteed = withPodLevel(podLevel(undefined), { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } });
  for (const qos of [computeQosClass, computeQosClassByContainer]) assert.equal(qos(guaranteed), 'Guaranteed');
  assert.equal(podQosClass(guaranteed.spec), 'Guaranteed', 'the class written at creation too');
  assert.equal(podQosClass(podLevel().spec), 'Burstable');
});

test('pod-level limits and requests cannot be removed (1.36+); the whole of them: 1.36 refuses, 1.37 keeps them (200, nothing changed)', () => {
  const noCpuLimit = refused(podLevel(), withPodLevel(podLevel(), { requests: { cpu: '1', memory: '1Gi' }, limits: { memory: '2Gi' } }), '1.36');
  assert.equal(noCpuLimit?.message, 'Pod "db-0" is invalid: spec.resources.limits: Forbidden: pod-level resource limits cannot be removed');
  const removed = refused(podLevel(), withPodLevel(podLevel(), undefined), '1.36');
  assert.deepEqual(
    removed?.details?.causes?.map((c) => c.field),
    ['spec.resources'],
  );
  assert.match(removed?.message ?? '', /spec.resources: Forbidden: pod-level resources cannot be removed/);
  const kept = validateResize(podLevel(), withPodLevel(podLevel(), undefined), '1.37');
  assert.ok(kept.ok, kept.ok ? '' : kept.status.message);
  assert.deepEqual(kept.pod.spec.resources, podLevel().spec.resources);
  assert.equal(kept.pod.metadata.generation, 3);
});

test('only cpu and memory may change at pod level', () => {
  const status = refused(
    podLevel(),
    withPodLevel(podLevel(), { requests: { cpu: '1', memory: '1Gi', 'hugepages-2Mi': '2Mi' }, limits: { cpu: '2', memory: '2Gi' } }),
    '1.36',
  );
  assert.match(status?.message ?? '', /spec: Forbidden: only cpu and memory resources are mutable at pod-level/);
});

test('1.37 defaults pod-level resources in a resize as at creation: a request from the containers, a limit from theirs', () => {
  const pod = podLevel({ requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '700m', memory: '512Mi' } });
  pod.spec.resources = { limits: { memory: '2Gi' } };
  defaultPodLevelResources(pod);
  assert.deepEqual(pod.spec.resources, { requests: { cpu: '500m', memory: '256Mi' }, limits: { memory: '2Gi', cpu: '700m' } });
});
