import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateVpa } from '../../src/api/validate-vpa.ts';

function vpa(spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, ...spec },
    ...extra,
  };
}

/** The errors of an invalid object as `path: message` lines. */
function errorsOf(input: unknown): string[] {
  const result = validateVpa(input);
  assert.equal(result.ok, false, 'expected the object to be invalid');
  return result.ok ? [] : result.errors.map((e) => `${e.path}: ${e.message}`);
}

test('a complete, valid VPA is returned typed and normalised', () => {
  const input = vpa(
    {
      updatePolicy: {
        updateMode: 'InPlaceOrRecreate',
        minReplicas: 1,
        evictionRequirements: [{ resources: ['cpu'], changeRequirement: 'TargetHigherThanRequests' }],
      },
      resourcePolicy: {
        containerPolicies: [
          {
            containerName: '*',
            minAllowed: { cpu: 0.1, memory: '64Mi' },
            maxAllowed: { cpu: 2, memory: '4Gi' },
            controlledResources: ['cpu', 'memory'],
            controlledValues: 'RequestsOnly',
          },
          { containerName: 'istio-proxy', mode: 'Off' },
        ],
      },
      recommenders: [{ name: 'tailor' }],
    },
    {
      status: {
        recommendation: {
          containerRecommendations: [
            {
              containerName: 'app',
              target: { cpu: '250m', memory: '256Mi' },
              lowerBound: { cpu: '100m' },
              upperBound: { cpu: '1' },
              uncappedTarget: { cpu: '250m' },
            },
          ],
        },
        conditions: [{ type: 'RecommendationProvided', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }],
      },
    },
  );
  const result = validateVpa(input);
  assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.errors));
  assert.equal(result.vpa.spec.updatePolicy?.updateMode, 'InPlaceOrRecreate');
  // YAML numbers become quantity strings.
  assert.deepEqual(result.vpa.spec.resourcePolicy?.containerPolicies?.[0]?.minAllowed, { cpu: '0.1', memory: '64Mi' });
  assert.deepEqual(result.vpa.spec.resourcePolicy?.containerPolicies?.[0]?.maxAllowed, { cpu: '2', memory: '4Gi' });
  assert.equal(result.vpa.status?.recommendation?.containerRecommendations?.[0]?.target.cpu, '250m');
});

test('the smallest valid VPA: targetRef only', () => {
  assert.equal(validateVpa(vpa({})).ok, true);
});

test('every update mode of the API is accepted', () => {
  for (const updateMode of ['Off', 'Initial', 'Recreate', 'InPlaceOrRecreate', 'InPlace', 'Auto']) {
    assert.equal(validateVpa(vpa({ updatePolicy: { updateMode } })).ok, true, updateMode);
  }
});

test('an unknown update mode is named with the supported values', () => {
  const [error] = errorsOf(vpa({ updatePolicy: { updateMode: 'Sometimes' } }));
  assert.match(error ?? '', /^spec\.updatePolicy\.updateMode: unsupported value "Sometimes": supported values are "Off", "Initial"/);
});

test('minAllowed above maxAllowed names the maxAllowed field', () => {
  const errors = errorsOf(
    vpa({
      resourcePolicy: { containerPolicies: [{ containerName: 'app', minAllowed: { cpu: '2', memory: '1Gi' }, maxAllowed: { cpu: '500m', memory: '1024Mi' } }] },
    }),
  );
  assert.deepEqual(errors, ['spec.resourcePolicy.containerPolicies[0].maxAllowed.cpu: 500m is below minAllowed.cpu 2']);
});

test('a bad quantity names the field and the value', () => {
  const errors = errorsOf(
    vpa({ resourcePolicy: { containerPolicies: [{ containerName: 'app', maxAllowed: { memory: '1 GB' }, minAllowed: { cpu: '-1' } }] } }),
  );
  assert.equal(errors.length, 2);
  assert.match(errors[0] ?? '', /^spec\.resourcePolicy\.containerPolicies\[0\]\.minAllowed\.cpu: .*"-1" is negative/);
  assert.match(errors[1] ?? '', /^spec\.resourcePolicy\.containerPolicies\[0\]\.maxAllowed\.memory: .*"1 GB" is malformed/);
});

test('a missing targetRef, kind or name is named', () => {
  const noRef = vpa({});
  delete (noRef.spec as Record<string, unknown>).targetRef;
  assert.deepEqual(errorsOf(noRef), ['spec.targetRef: is required']);
  assert.deepEqual(errorsOf(vpa({ targetRef: { name: 'web' } })), ['spec.targetRef.kind: is required']);
  assert.deepEqual(errorsOf(vpa({ targetRef: { kind: 'Deployment', name: '' } })), ['spec.targetRef.name: must not be empty']);
});

test('a container policy for an unknown resource is rejected', () => {
  const errors = errorsOf(
    vpa({
      resourcePolicy: {
        containerPolicies: [{ containerName: 'app', maxAllowed: { 'nvidia.com/gpu': '1' }, controlledResources: ['cpu', 'ephemeral-storage'] }],
      },
    }),
  );
  assert.deepEqual(errors, [
    'spec.resourcePolicy.containerPolicies[0].maxAllowed.nvidia.com/gpu: unsupported resource "nvidia.com/gpu": Tailor controls only "cpu" and "memory"',
    'spec.resourcePolicy.containerPolicies[0].controlledResources[1]: unsupported resource "ephemeral-storage": Tailor controls only "cpu" and "memory"',
  ]);
});

test('duplicate container policies are rejected, naming the first', () => {
  const errors = errorsOf(
    vpa({ resourcePolicy: { containerPolicies: [{ containerName: '*' }, { containerName: 'app' }, { containerName: '*', mode: 'Off' }] } }),
  );
  assert.deepEqual(errors, [
    'spec.resourcePolicy.containerPolicies[2].containerName: duplicate policy for container "*" (first at spec.resourcePolicy.containerPolicies[0])',
  ]);
});

test('minReplicas must be a positive integer', () => {
  assert.deepEqual(errorsOf(vpa({ updatePolicy: { updateMode: 'Recreate', minReplicas: 0 } })), [
    'spec.updatePolicy.minReplicas: must be greater than 0, not 0',
  ]);
  assert.deepEqual(errorsOf(vpa({ updatePolicy: { updateMode: 'Recreate', minReplicas: 1.5 } })), [
    'spec.updatePolicy.minReplicas: must be an integer, not 1.5',
  ]);
});

test('enum fields of container policies and eviction requirements', () => {
  const errors = errorsOf(
    vpa({
      updatePolicy: { updateMode: 'InPlace', evictionRequirements: [{ resources: [], changeRequirement: 'Whenever' }] },
      resourcePolicy: { containerPolicies: [{ containerName: 'app', mode: 'On', controlledValues: 'LimitsOnly' }] },
    }),
  );
  assert.deepEqual(
    errors.map((e) => e.split(':')[0]),
    [
      'spec.updatePolicy.evictionRequirements[0].resources',
      'spec.updatePolicy.evictionRequirements[0].changeRequirement',
      'spec.resourcePolicy.containerPolicies[0].mode',
      'spec.resourcePolicy.containerPolicies[0].controlledValues',
    ],
  );
});

test('unknown fields under spec are reported (usually typos)', () => {
  assert.deepEqual(errorsOf(vpa({ updatePolicy: { updatemode: 'Off' } })), [
    'spec.updatePolicy.updatemode: unknown field (known fields: updateMode, minReplicas, evictionRequirements, evictAfterOOMSeconds)',
    'spec.updatePolicy.updateMode: is required when updatePolicy is set',
  ]);
});

test('more than one recommender is rejected, as upstream does', () => {
  assert.deepEqual(errorsOf(vpa({ recommenders: [{ name: 'a' }, { name: 'b' }] })), ['spec.recommenders: names 2 recommenders; at most one is supported']);
});

test('wrong apiVersion, kind, missing metadata.name and spec are all reported at once', () => {
  assert.deepEqual(errorsOf({ apiVersion: 'autoscaling.k8s.io/v1beta2', kind: 'VPA', metadata: {} }), [
    'apiVersion: must be "autoscaling.k8s.io/v1", not "autoscaling.k8s.io/v1beta2"',
    'kind: must be "VerticalPodAutoscaler", not "VPA"',
    'metadata.name: is required',
    'spec: is required',
  ]);
});

test('a bad status recommendation quantity is named', () => {
  const errors = errorsOf(vpa({}, { status: { recommendation: { containerRecommendations: [{ containerName: 'app', target: { cpu: 'fast' } }] } } }));
  assert.equal(errors.length, 1);
  assert.match(errors[0] ?? '', /^status\.recommendation\.containerRecommendations\[0\]\.target\.cpu: /);
});

test('never throws, whatever it is given', () => {
  const inputs: unknown[] = [
    null,
    undefined,
    42,
    'vpa',
    [],
    { spec: null },
    { spec: { targetRef: [] } },
    vpa({ resourcePolicy: { containerPolicies: [null, 5, { containerName: 7 }] } }),
  ];
  for (const input of inputs) {
    const result = validateVpa(input);
    assert.equal(result.ok, false);
    if (!result.ok) assert.ok(result.errors.length > 0);
  }
});

test('min/maxAllowed must be whole millicores and whole bytes, as upstream requires', () => {
  const errors = errorsOf(
    vpa({
      resourcePolicy: {
        containerPolicies: [{ containerName: 'app', minAllowed: { cpu: '0.5m', memory: '1.5' }, maxAllowed: { cpu: '1.0005', memory: '1.5Ki' } }],
      },
    }),
  );
  assert.deepEqual(errors, [
    'spec.resourcePolicy.containerPolicies[0].minAllowed.cpu: 0.5m is not a whole number of millicores',
    'spec.resourcePolicy.containerPolicies[0].minAllowed.memory: 1.5 is not a whole number of bytes',
    'spec.resourcePolicy.containerPolicies[0].maxAllowed.cpu: 1.0005 is not a whole number of millicores',
  ]);
});

test('RequestsAndLimits with mode Off is rejected, RequestsOnly with mode Off is not (as upstream)', () => {
  assert.deepEqual(errorsOf(vpa({ resourcePolicy: { containerPolicies: [{ containerName: 'app', mode: 'Off', controlledValues: 'RequestsAndLimits' }] } })), [
    'spec.resourcePolicy.containerPolicies[0].controlledValues: must not be RequestsAndLimits when mode is "Off" (the container is not scaled)',
  ]);
  assert.equal(validateVpa(vpa({ resourcePolicy: { containerPolicies: [{ containerName: 'app', mode: 'Off', controlledValues: 'RequestsOnly' }] } })).ok, true);
});

test('an updatePolicy without updateMode is rejected, as upstream does', () => {
  assert.deepEqual(errorsOf(vpa({ updatePolicy: { minReplicas: 2 } })), ['spec.updatePolicy.updateMode: is required when updatePolicy is set']);
});

test('upstream 1.8 per-VPA fields are read and normalised (numbers become quantity text)', () => {
  const boost = { cpu: { type: 'Factor', factor: 2, durationSeconds: 15 } };
  const result = validateVpa(
    vpa({
      updatePolicy: { updateMode: 'InPlace', evictAfterOOMSeconds: 600 },
      resourcePolicy: {
        containerPolicies: [
          {
            containerName: '*',
            oomBumpUpRatio: 3,
            oomMinBumpUp: 104857600,
            memoryAggregationIntervalSeconds: 3600,
            memoryAggregationIntervalCount: 24,
            startupBoost: { cpu: { type: 'Quantity', quantity: '500m' } },
          },
        ],
      },
      startupBoost: boost,
    }),
  );
  assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.errors));
  assert.equal(result.vpa.spec.updatePolicy?.evictAfterOOMSeconds, 600);
  assert.deepEqual(result.vpa.spec.startupBoost, boost);
  const policy = result.vpa.spec.resourcePolicy?.containerPolicies?.[0];
  assert.deepEqual(
    { ...policy },
    {
      containerName: '*',
      oomBumpUpRatio: '3',
      oomMinBumpUp: '104857600',
      memoryAggregationIntervalSeconds: 3600,
      memoryAggregationIntervalCount: 24,
      startupBoost: { cpu: { type: 'Quantity', quantity: '500m' } },
    },
  );
});

test("upstream 1.8 per-VPA fields out of upstream's bounds are named", () => {
  const errors = errorsOf(
    vpa({
      updatePolicy: { updateMode: 'Recreate', evictAfterOOMSeconds: 0 },
      resourcePolicy: {
        containerPolicies: [
          { containerName: '*', oomBumpUpRatio: '0.9', oomMinBumpUp: '-1', memoryAggregationIntervalSeconds: 0, memoryAggregationIntervalCount: 1.5 },
        ],
      },
    }),
  );
  assert.deepEqual(
    errors.map((e) => e.replace(/:.*?(must|is|quantity)/, ': $1')),
    [
      'spec.updatePolicy.evictAfterOOMSeconds: must be greater than or equal to 1, not 0',
      'spec.resourcePolicy.containerPolicies[0].oomBumpUpRatio: must be greater than or equal to 1 (an OOM kill never lowers memory), not 0.9',
      'spec.resourcePolicy.containerPolicies[0].oomMinBumpUp: quantity "-1" is negative',
      'spec.resourcePolicy.containerPolicies[0].memoryAggregationIntervalSeconds: must be greater than or equal to 1, not 0',
      'spec.resourcePolicy.containerPolicies[0].memoryAggregationIntervalCount: must be an integer, not 1.5',
    ],
  );
});

test('startupBoost pairs its type with factor or quantity, as the upstream CRD and webhook do', () => {
  const boosted = (cpu: Record<string, unknown>) => vpa({ startupBoost: { cpu } });
  assert.deepEqual(errorsOf(boosted({ factor: 2 })), ['spec.startupBoost.cpu.type: is required: "Factor" or "Quantity"']);
  assert.deepEqual(errorsOf(boosted({ type: 'Factor' })), ['spec.startupBoost.cpu.factor: is required when type is "Factor"']);
  assert.deepEqual(errorsOf(boosted({ type: 'Quantity', factor: 2 })), [
    'spec.startupBoost.cpu.quantity: is required when type is "Quantity"',
    'spec.startupBoost.cpu.factor: must not be set when type is "Quantity"',
  ]);
  assert.deepEqual(errorsOf(boosted({ type: 'Factor', factor: 0, quantity: '1' })), [
    'spec.startupBoost.cpu.factor: must be greater than or equal to 1, not 0',
    'spec.startupBoost.cpu.quantity: must not be set when type is "Factor"',
  ]);
  assert.deepEqual(errorsOf(boosted({ type: 'Quantity', quantity: '0.5m', durationSeconds: -1 })), [
    'spec.startupBoost.cpu.quantity: 0.5m is not a whole number of millicores',
    'spec.startupBoost.cpu.durationSeconds: must be greater than or equal to 0, not -1',
  ]);
  assert.match(
    errorsOf(boosted({ type: 'Percent' }))[0] ?? '',
    /^spec\.startupBoost\.cpu\.type: unsupported value "Percent": supported values are "Factor", "Quantity"$/,
  );
  assert.deepEqual(
    errorsOf(vpa({ resourcePolicy: { containerPolicies: [{ containerName: 'app', startupBoost: { cpu: { type: 'Factor', factor: 2, duration: 5 } } }] } })),
    ['spec.resourcePolicy.containerPolicies[0].startupBoost.cpu.duration: unknown field (known fields: type, factor, quantity, durationSeconds)'],
  );
  assert.equal(validateVpa(vpa({ startupBoost: {} })).ok, true, 'no cpu: no boost');
});
