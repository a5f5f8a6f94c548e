import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { rawRequest, startSim, statusBody, statusCode, type SimFixture } from './sim-fixture.ts';

let sim: SimFixture;
before(async () => {
  sim = await startSim();
});
after(async () => {
  await sim?.close();
});

const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers', namespace: 'default' };
let n = 0;
function vpa(spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'autoscaling.k8s.io/v1', kind: 'VerticalPodAutoscaler', metadata: { name: `vpa-${(n += 1)}` }, spec, ...extra };
}
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

// prettier-ignore: one row per line, read as a table
const invalidCases: { name: string; spec: Record<string, unknown>; field: string; message: RegExp }[] = [
  { name: 'targetRef is required', spec: { updatePolicy: { updateMode: 'Auto' } }, field: 'spec.targetRef', message: /^Required value$/ },
  {
    name: 'updateMode is an enum',
    spec: { targetRef: target, updatePolicy: { updateMode: 'Sometimes' } },
    field: 'spec.updatePolicy.updateMode',
    message: /^Unsupported value: "Sometimes": supported values: "Off", "Initial", "Recreate", "InPlaceOrRecreate", "InPlace", "Auto"$/,
  },
  {
    name: 'minReplicas is an integer',
    spec: { targetRef: target, updatePolicy: { minReplicas: 'two' } },
    field: 'spec.updatePolicy.minReplicas',
    message: /must be of type integer/,
  },
  {
    name: 'evictAfterOOMSeconds has a minimum of 1',
    spec: { targetRef: target, updatePolicy: { evictAfterOOMSeconds: 0 } },
    field: 'spec.updatePolicy.evictAfterOOMSeconds',
    message: /should be greater than or equal to 1/,
  },
  {
    name: 'maxAllowed quantities follow the quantity pattern',
    spec: { targetRef: target, resourcePolicy: { containerPolicies: [{ containerName: '*', maxAllowed: { cpu: 'lots' } }] } },
    field: 'spec.resourcePolicy.containerPolicies[0].maxAllowed.cpu',
    message: /should match/,
  },
  { name: 'targetRef.name is required', spec: { targetRef: { kind: 'Deployment' } }, field: 'spec.targetRef.name', message: /^Required value$/ },
];

for (const c of invalidCases) {
  test(`CRD validation: ${c.name}`, async () => {
    await assert.rejects(sim.custom.createNamespacedCustomObject({ ...VPA, body: vpa(c.spec) }), (err) => {
      assert.equal(statusCode(err), 422);
      const status = statusBody(err);
      assert.equal(status.reason, 'Invalid');
      const cause = status.details?.causes?.find((x) => x.field === c.field);
      assert.ok(cause, `no cause for ${c.field}: ${JSON.stringify(status.details?.causes)}`);
      assert.match(cause.message ?? '', c.message);
      assert.match(status.message ?? '', /^VerticalPodAutoscaler\.autoscaling\.k8s\.io "vpa-\d+" is invalid: /);
      return true;
    });
  });
}

test('valid VPAs are stored; unknown fields are pruned; quantities may be numbers', async () => {
  const body = vpa({
    targetRef: target,
    unknownField: 1,
    resourcePolicy: { containerPolicies: [{ containerName: 'app', minAllowed: { cpu: '100m', memory: 1048576 } }] },
  });
  const created = (await sim.custom.createNamespacedCustomObject({ ...VPA, body })) as { spec: Record<string, unknown>; metadata: { generation: number } };
  assert.equal(created.spec['unknownField'], undefined);
  assert.deepEqual(created.spec['targetRef'], target);
  assert.equal(created.metadata.generation, 1);
});

test('x-kubernetes-preserve-unknown-fields keeps arbitrary keys (checkpoint bucketWeights)', async () => {
  const body = {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscalerCheckpoint',
    metadata: { name: 'cp' },
    spec: { vpaObjectName: 'v', containerName: 'app' },
    status: { cpuHistogram: { bucketWeights: { '3': 10000, '7': 512 }, totalWeight: 2.5 }, version: 'v3' },
  };
  const created = (await sim.custom.createNamespacedCustomObject({ ...VPA, plural: 'verticalpodautoscalercheckpoints', body })) as {
    status: { cpuHistogram: { bucketWeights: Record<string, number> } };
  };
  assert.deepEqual(created.status.cpuHistogram.bucketWeights, { '3': 10000, '7': 512 });
});

test('the VPA status subresource: create drops status, /status sets it, the main resource ignores it', async () => {
  const body = vpa({ targetRef: target }, { status: { recommendation: { containerRecommendations: [] } } });
  const name = (body['metadata'] as { name: string }).name;
  const created = (await sim.custom.createNamespacedCustomObject({ ...VPA, body })) as { status?: unknown };
  assert.equal(created.status, undefined);
  const recommendation = { containerRecommendations: [{ containerName: 'app', target: { cpu: '250m', memory: '256Mi' } }] };
  const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
  const patched = (await sim.custom.patchNamespacedCustomObjectStatus({ ...VPA, name, body: { status: { recommendation } } }, merge)) as {
    status: { recommendation: unknown };
    metadata: { generation: number };
  };
  assert.deepEqual(patched.status.recommendation, recommendation);
  assert.equal(patched.metadata.generation, 1);
  const main = (await sim.custom.patchNamespacedCustomObject(
    { ...VPA, name, body: { status: { recommendation: null }, spec: { updatePolicy: { updateMode: 'Off' } } } },
    merge,
  )) as { status: { recommendation: unknown }; metadata: { generation: number } };
  assert.deepEqual(main.status.recommendation, recommendation);
  assert.equal(main.metadata.generation, 2);
  await assert.rejects(
    sim.custom.patchNamespacedCustomObjectStatus(
      { ...VPA, name, body: { status: { recommendation: { containerRecommendations: [{ containerName: 'app' }] } } } },
      merge,
    ),
    (err) => statusCode(err) === 422,
  );
});

test('a custom resource update without resourceVersion is 422', async () => {
  const body = vpa({ targetRef: target });
  const name = (body['metadata'] as { name: string }).name;
  await sim.custom.createNamespacedCustomObject({ ...VPA, body });
  await assert.rejects(sim.custom.replaceNamespacedCustomObject({ ...VPA, name, body }), (err) => {
    assert.equal(statusCode(err), 422);
    assert.match(statusBody(err).message ?? '', /metadata.resourceVersion: Invalid value: 0x0: must be specified for an update/);
    return true;
  });
});

test('a new CRD is served with defaults, scale subresource and discovery; deleting it removes its objects', async () => {
  const ext = sim.kc.makeApiClient(k8s.ApiextensionsV1Api);
  await ext.createCustomResourceDefinition({
    body: {
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: {
              status: {},
              scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
            },
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', properties: { replicas: { type: 'integer', _default: 1 }, size: { type: 'string', _enum: ['S', 'M'] } } },
                  status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
                },
              },
            },
          },
        ],
      },
    },
  });
  const crd = await ext.readCustomResourceDefinition({ name: 'widgets.example.com' });
  assert.equal(crd.status?.conditions?.find((c) => c.type === 'Established')?.status, 'True');
  const discovery = await rawRequest(sim.server, 'GET', '/apis/example.com/v1');
  const names = (discovery.json() as { resources: { name: string }[] }).resources.map((r) => r.name);
  assert.deepEqual(names, ['widgets', 'widgets/scale', 'widgets/status']);
  const W = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets' };
  const created = (await sim.custom.createNamespacedCustomObject({
    ...W,
    body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 'S' } },
  })) as { spec: { replicas: number } };
  assert.equal(created.spec.replicas, 1, 'schema default applied');
  const scale = await sim.custom.patchNamespacedCustomObjectScale(
    { ...W, name: 'w', body: { spec: { replicas: 3 } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  assert.equal((scale as { spec: { replicas: number } }).spec.replicas, 3);
  await ext.deleteCustomResourceDefinition({ name: 'widgets.example.com' });
  const gone = await rawRequest(sim.server, 'GET', '/apis/example.com/v1/namespaces/default/widgets');
  assert.equal(gone.status, 404);
  assert.equal(sim.server.store.count('widgets.example.com'), 0);
});

test('fieldValidation=Strict rejects fields the schema does not declare (kubectl apply sends it)', async () => {
  const body = vpa({ targetRef: target, updatePolicy: { updateMode: 'Off', colour: 'red' } });
  const res = await rawRequest(sim.server, 'POST', '/apis/autoscaling.k8s.io/v1/namespaces/default/verticalpodautoscalers?fieldValidation=Strict', body);
  assert.equal(res.status, 400);
  assert.equal(
    (res.json() as { message: string }).message,
    'VerticalPodAutoscaler in version "v1" cannot be handled as a VerticalPodAutoscaler: strict decoding error: unknown field "spec.updatePolicy.colour"',
  );
  const lenient = await rawRequest(sim.server, 'POST', '/apis/autoscaling.k8s.io/v1/namespaces/default/verticalpodautoscalers?fieldValidation=Ignore', body);
  assert.equal(lenient.status, 201);
  assert.equal((lenient.json() as { spec: { updatePolicy: Record<string, unknown> } }).spec.updatePolicy['colour'], undefined);
});

test('fieldValidation=Warn stores the pruned object and warns about each unknown field', async () => {
  const body = vpa({ targetRef: target, shade: 'blue' });
  const res = await rawRequest(sim.server, 'POST', '/apis/autoscaling.k8s.io/v1/namespaces/default/verticalpodautoscalers?fieldValidation=Warn', body);
  assert.equal(res.status, 201);
  assert.equal(res.headers['warning'], '299 - "unknown field \\"spec.shade\\""');
});
