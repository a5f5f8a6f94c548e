import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateResize, legacyResourceUpdateErrors } from '../src/resize-rules.ts';
import type { Container, Pod } from '../src/objects.ts';
import type { ServerVersion } from '../src/server-version.ts';

function container(name: string, requests: Record<string, string>, limits?: Record<string, string>, extra: Partial<Container> = {}): Container {
  return { name, image: 'nginx', resources: { requests, ...(limits ? { limits } : {}) }, ...extra };
}

function runningPod(containers: Container[], qosClass: string, extra: Partial<Pod['spec']> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: 'default', generation: 1, uid: 'u1' },
    spec: { nodeName: 'node-a', containers, ...extra },
    status: {
      phase: 'Running',
      qosClass,
      containerStatuses: containers.map((c) => ({
        name: c.name,
        ready: true,
        restartCount: 0,
        state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
        resources: c.resources ?? {},
      })),
    },
  };
}

function withResources(pod: Pod, index: number, resources: Container['resources'], resizePolicy?: Container['resizePolicy']): Pod {
  const after = structuredClone(pod);
  after.spec.containers[index]!.resources = resources;
  if (resizePolicy) after.spec.containers[index]!.resizePolicy = resizePolicy;
  return after;
}

const burstable = () => runningPod([container('app', { cpu: '250m', memory: '256Mi' }, { cpu: '500m', memory: '512Mi' })], 'Burstable');
const guaranteed = () => runningPod([container('app', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })], 'Guaranteed');

interface Case {
  name: string;
  versions: ServerVersion[];
  before: () => Pod;
  after: (before: Pod) => Pod;
  code?: number;
  reason?: string;
  messagePrefix?: string;
  causes?: Array<{ reason: string; field: string; message: string }>;
}

const cases: Case[] = [
  {
    name: 'cpu and memory increase on a Burstable pod is accepted',
    versions: ['1.33', '1.35'],
    before: burstable,
    after: (p) => withResources(p, 0, { requests: { cpu: '400m', memory: '300Mi' }, limits: { cpu: '800m', memory: '600Mi' } }),
  },
  {
    name: 'a change to ephemeral-storage is forbidden: only cpu and memory resources are mutable',
    versions: ['1.33', '1.35'],
    before: () => runningPod([container('app', { cpu: '250m', memory: '256Mi', 'ephemeral-storage': '1Gi' }, { cpu: '500m', memory: '512Mi' })], 'Burstable'),
    after: (p) => withResources(p, 0, { requests: { cpu: '250m', memory: '256Mi', 'ephemeral-storage': '2Gi' }, limits: { cpu: '500m', memory: '512Mi' } }),
    code: 422,
    reason: 'Invalid',
    messagePrefix: 'Pod "web-0" is invalid: spec: Forbidden: only cpu and memory resources are mutable',
    causes: [{ reason: 'FieldValueForbidden', field: 'spec', message: 'Forbidden: only cpu and memory resources are mutable' }],
  },
  {
    name: 'Guaranteed may not become Burstable',
    versions: ['1.33', '1.35'],
    before: guaranteed,
    after: (p) => withResources(p, 0, { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }),
    code: 422,
    reason: 'Invalid',
    messagePrefix: 'Pod "web-0" is invalid: spec: Invalid value: "Guaranteed": Pod QOS Class may not change as a result of resizing',
    causes: [{ reason: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: "Guaranteed": Pod QOS Class may not change as a result of resizing' }],
  },
  {
    name: 'Guaranteed stays Guaranteed when requests and limits move together',
    versions: ['1.33', '1.35'],
    before: guaranteed,
    after: (p) => withResources(p, 0, { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '2', memory: '2Gi' } }),
  },
  {
    name: 'Burstable may not become Guaranteed',
    versions: ['1.33', '1.35'],
    before: burstable,
    after: (p) => withResources(p, 0, { requests: { cpu: '500m', memory: '512Mi' }, limits: { cpu: '500m', memory: '512Mi' } }),
    code: 422,
    reason: 'Invalid',
    messagePrefix: 'Pod "web-0" is invalid: spec: Invalid value: "Burstable": Pod QOS Class may not change',
  },
  {
    name: 'BestEffort may not gain resources',
    versions: ['1.33', '1.35'],
    before: () => runningPod([{ name: 'app', image: 'nginx' }], 'BestEffort'),
    after: (p) => withResources(p, 0, { requests: { cpu: '100m' } }),
    code: 422,
    reason: 'Invalid',
    messagePrefix: 'Pod "web-0" is invalid: spec: Invalid value: "BestEffort": Pod QOS Class may not change',
  },
  {
    name: 'a request may not be removed',
    versions: ['1.33', '1.35'],
    before: burstable,
    after: (p) => withResources(p, 0, { requests: { cpu: '250m' }, limits: { cpu: '500m' } }),
    code: 422,
    reason: 'Invalid',
    messagePrefix:
      'Pod "web-0" is invalid: [spec.containers[0].resources.requests: Forbidden: resource requests cannot be removed, spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed',
  },
  {
    name: 'a limit may not be removed',
    versions: ['1.33', '1.35'],
    before: burstable,
    after: (p) => withResources(p, 0, { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '512Mi' } }),
    code: 422,
    reason: 'Invalid',
    messagePrefix: 'Pod "web-0" is invalid: spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed',
    causes: [{ reason: 'FieldValueForbidden', field: 'spec.containers[0].resources.limits', message: 'Forbidden: resource limits cannot be removed' }],
  },
  {
    name: 'requests above limits are invalid',
    versions: ['1.33', '1.35'],
    before: burstable,
    after: (p) => withResources(p, 0, { requests: { cpu: '2', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } }),
    code: 422,
    reason: 'Invalid',
    // The real server names the requests, not the resource (fidelity corpus: resize-request-above-limit).
    messagePrefix: 'Pod "web-0" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
  },
  {
    // As the real 1.35.4 (fidelity corpus: resize-pod-level-container-only); 1.36+: pod-level-resize-rules.test.ts.
    name: 'pods with pod-level resources cannot be resized before 1.36',
    versions: ['1.33', '1.35'],
    before: () => ({ ...burstable(), spec: { ...burstable().spec, resources: { limits: { cpu: '1' } } } }),
    after: (p) => withResources(p, 0, { requests: { cpu: '300m', memory: '256Mi' }, limits: { cpu: '500m', memory: '512Mi' } }),
    code: 422,
    reason: 'Invalid',
    messagePrefix:
      'Pod "web-0" is invalid: []: Forbidden: resize of pods with pod-level resources is forbidden when InPlacePodLevelResourcesVerticalScalingEnabled feature gate is disabled',
  },
  {
    name: 'static pods cannot be resized',
    versions: ['1.33', '1.35'],
    before: () => {
      const p = burstable();
      p.metadata.annotations = { 'kubernetes.io/config.mirror': 'abc' };
      return p;
    },
    after: (p) => withResources(p, 0, { requests: { cpu: '300m', memory: '256Mi' }, limits: { cpu: '500m', memory: '512Mi' } }),
    code: 422,
    reason: 'Invalid',
    // field.NewPath("") prints as "[]", as recorded for the pod-level refusal on the real 1.35.4.
    messagePrefix: 'Pod "web-0" is invalid: []: Forbidden: static pods cannot be resized',
  },
  {
    name: 'windows pods cannot be resized',
    versions: ['1.33', '1.35'],
    before: () => ({ ...burstable(), spec: { ...burstable().spec, os: { name: 'windows' } } }),
    after: (p) => withResources(p, 0, { requests: { cpu: '300m', memory: '256Mi' }, limits: { cpu: '500m', memory: '512Mi' } }),
    code: 422,
    reason: 'Invalid',
    messagePrefix: 'Pod "web-0" is invalid: []: Forbidden: windows pods cannot be resized',
  },
  {
    name: 'non-sidecar init container resources are immutable',
    versions: ['1.33', '1.35'],
    before: () =>
      runningPod([container('app', { cpu: '250m', memory: '256Mi' }, { cpu: '500m', memory: '512Mi' })], 'Burstable', {
        initContainers: [container('init', { cpu: '100m', memory: '64Mi' })],
      }),
    after: (p) => {
      const a = structuredClone(p);
      a.spec.initContainers![0]!.resources = { requests: { cpu: '200m', memory: '64Mi' } };
      return a;
    },
    code: 422,
    reason: 'Invalid',
    messagePrefix: 'Pod "web-0" is invalid: spec: Forbidden: resources for non-sidecar init containers are immutable',
  },
  {
    name: 'a sidecar (restartable init container) may be resized',
    versions: ['1.33', '1.35'],
    before: () =>
      runningPod([container('app', { cpu: '250m', memory: '256Mi' }, { cpu: '500m', memory: '512Mi' })], 'Burstable', {
        initContainers: [container('proxy', { cpu: '100m', memory: '64Mi' }, undefined, { restartPolicy: 'Always' })],
      }),
    after: (p) => {
      const a = structuredClone(p);
      a.spec.initContainers![0]!.resources = { requests: { cpu: '200m', memory: '96Mi' } };
      return a;
    },
  },
  {
    name: 'a running container without status resources is on a node without resize support',
    versions: ['1.33', '1.35'],
    before: () => {
      const p = burstable();
      delete p.status!.containerStatuses![0]!.resources;
      return p;
    },
    after: (p) => withResources(p, 0, { requests: { cpu: '300m', memory: '256Mi' }, limits: { cpu: '500m', memory: '512Mi' } }),
    code: 422,
    reason: 'Invalid',
    messagePrefix: 'Pod "web-0" is invalid: spec: Forbidden: Pod running on node without support for resize',
  },
  {
    name: 'memory limit decrease with NotRequired is forbidden on 1.33',
    versions: ['1.33'],
    before: burstable,
    after: (p) => withResources(p, 0, { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '500m', memory: '384Mi' } }),
    code: 422,
    reason: 'Invalid',
    messagePrefix:
      'Pod "web-0" is invalid: spec.containers[0].resources.limits[memory]: Forbidden: memory limits cannot be decreased unless resizePolicy is RestartContainer',
    causes: [
      {
        reason: 'FieldValueForbidden',
        field: 'spec.containers[0].resources.limits[memory]',
        message: 'Forbidden: memory limits cannot be decreased unless resizePolicy is RestartContainer',
      },
    ],
  },
  {
    name: 'memory limit decrease with NotRequired is allowed on 1.35',
    versions: ['1.35'],
    before: burstable,
    after: (p) => withResources(p, 0, { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '500m', memory: '384Mi' } }),
  },
  {
    name: 'memory limit decrease with RestartContainer is allowed on 1.33',
    versions: ['1.33', '1.35'],
    before: () => {
      const p = burstable();
      p.spec.containers[0]!.resizePolicy = [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }];
      return p;
    },
    after: (p) =>
      withResources(p, 0, { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '500m', memory: '384Mi' } }, [
        { resourceName: 'memory', restartPolicy: 'RestartContainer' },
      ]),
  },
  {
    // The real server (fidelity corpus: resize-policy-changed/added/dropped).
    name: 'resizePolicy cannot change through pods/resize',
    versions: ['1.33', '1.35'],
    before: burstable,
    after: (p) =>
      withResources(p, 0, { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '500m', memory: '512Mi' } }, [
        { resourceName: 'memory', restartPolicy: 'RestartContainer' },
      ]),
    code: 422,
    reason: 'Invalid',
    messagePrefix: 'Pod "web-0" is invalid: spec: Forbidden: only cpu and memory resources are mutable',
  },
  {
    name: 'adding a container is invalid',
    versions: ['1.33', '1.35'],
    before: burstable,
    after: (p) => {
      const a = structuredClone(p);
      a.spec.containers.push(container('extra', { cpu: '10m', memory: '10Mi' }, { cpu: '10m', memory: '10Mi' }));
      return a;
    },
    code: 422,
    reason: 'Invalid',
    messagePrefix: 'Pod "web-0" is invalid: spec.containers: Forbidden: containers may not be added or removed on resize',
  },
  {
    name: 'renaming or reordering containers is invalid',
    versions: ['1.33', '1.35'],
    before: () =>
      runningPod(
        [
          container('a', { cpu: '100m', memory: '64Mi' }, { cpu: '200m', memory: '128Mi' }),
          container('b', { cpu: '100m', memory: '64Mi' }, { cpu: '200m', memory: '128Mi' }),
        ],
        'Burstable',
      ),
    after: (p) => {
      const a = structuredClone(p);
      a.spec.containers.reverse();
      return a;
    },
    code: 422,
    reason: 'Invalid',
    messagePrefix:
      'Pod "web-0" is invalid: [spec.containers[0].name: Forbidden: containers may not be renamed or reordered on resize, spec.containers[1].name: Forbidden',
  },
  {
    name: 'an unparseable quantity is a BadRequest',
    versions: ['1.33', '1.35'],
    before: burstable,
    after: (p) => withResources(p, 0, { requests: { cpu: 'lots', memory: '256Mi' }, limits: { cpu: '500m', memory: '512Mi' } }),
    code: 400,
    reason: 'BadRequest',
    messagePrefix: 'Pod in version "v1" cannot be handled as a Pod: quantities must match',
  },
];

for (const c of cases) {
  for (const version of c.versions) {
    test(`resize ${version}: ${c.name}`, () => {
      const before = c.before();
      const outcome = validateResize(before, c.after(before), version);
      if (c.code === undefined) {
        assert.ok(outcome.ok, outcome.ok ? '' : outcome.status.message);
        return;
      }
      assert.ok(!outcome.ok, 'expected a rejection');
      assert.equal(outcome.status.code, c.code);
      assert.equal(outcome.status.reason, c.reason);
      assert.equal(outcome.status.kind, 'Status');
      assert.ok(outcome.status.message.startsWith(c.messagePrefix!), outcome.status.message);
      if (c.causes) assert.deepEqual(outcome.status.details?.causes, c.causes);
    });
  }
}

test('an accepted resize takes only resources and bumps the generation', () => {
  const before = burstable();
  before.spec.containers[0]!.resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }];
  const after = withResources(before, 0, { requests: { cpu: '400m', memory: '300Mi' }, limits: { cpu: '800m', memory: '600Mi' } }, [
    { resourceName: 'cpu', restartPolicy: 'NotRequired' },
  ]);
  after.spec.containers[0]!.image = 'evil:latest';
  after.metadata.labels = { sneaky: 'yes' };
  after.spec.nodeName = 'node-z';
  const outcome = validateResize(before, after, '1.35');
  assert.ok(outcome.ok);
  assert.equal(outcome.pod.spec.containers[0]!.image, 'nginx');
  assert.equal(outcome.pod.spec.nodeName, 'node-a');
  assert.equal(outcome.pod.metadata.labels, undefined);
  assert.deepEqual(outcome.pod.spec.containers[0]!.resources, { requests: { cpu: '400m', memory: '300Mi' }, limits: { cpu: '800m', memory: '600Mi' } });
  assert.deepEqual(outcome.pod.spec.containers[0]!.resizePolicy, [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }]);
  assert.equal(outcome.pod.metadata.generation, 2);
  assert.deepEqual(outcome.pod.status, before.status, 'status is untouched by the API server');
});

test('a no-op resize keeps the generation', () => {
  const before = burstable();
  const outcome = validateResize(before, structuredClone(before), '1.35');
  assert.ok(outcome.ok);
  assert.equal(outcome.pod.metadata.generation, 1);
});

test('a limit without a request defaults the request, so removing a request with its limit kept is no removal', () => {
  const before = guaranteed();
  const outcome = validateResize(before, withResources(before, 0, { limits: { cpu: '2', memory: '2Gi' } }), '1.35');
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.status.message);
  assert.deepEqual(outcome.pod.spec.containers[0]!.resources!.requests, { cpu: '2', memory: '2Gi' });
});

test('1.32 pod updates: QoS is immutable, other resource changes pass', () => {
  const before = guaranteed();
  const errs = legacyResourceUpdateErrors(before, withResources(before, 0, { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }));
  assert.deepEqual(errs, [{ type: 'FieldValueInvalid', field: 'metadata', value: 'Guaranteed', detail: 'Pod QoS is immutable' }]);
  assert.deepEqual(
    legacyResourceUpdateErrors(before, withResources(before, 0, { requests: { cpu: '2', memory: '512Mi' }, limits: { cpu: '2', memory: '512Mi' } })),
    [],
  );
});

test("a negative cpu in a Guaranteed pod's resize: up to 1.36 the QoS reads Burstable and is refused too; 1.37 judges per container (-300m = -300m: Guaranteed)", () => {
  const resized = withResources(guaranteed(), 0, { requests: { cpu: '-300m', memory: '1Gi' }, limits: { cpu: '-300m', memory: '1Gi' } });
  const messages = (version: ServerVersion) => {
    const outcome = validateResize(guaranteed(), resized, version);
    assert.equal(outcome.ok, false);
    return outcome.ok ? '' : outcome.status.message;
  };
  for (const version of ['1.35', '1.36'] as const) assert.match(messages(version), /Pod QOS Class may not change as a result of resizing/, version);
  assert.doesNotMatch(messages('1.37'), /QOS/);
  assert.match(messages('1.37'), /must be greater than or equal to 0/);
});
