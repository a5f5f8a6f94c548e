/**
 * The VerticalPodAutoscaler CRD (manifests/crds) against upstream VPA 1.8.1's
 * (deploy/vpa-v1-crd-gen.yaml, pkg/apis/autoscaling.k8s.io/v1/types.go): the same fields and no
 * other constraint than upstream's (what upstream leaves to its webhook stays out of the schema),
 * and the CRD, kube-sim and `validateVpa` agree on a VPA using every upstream 1.8 field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { KubeSimApiServer } from 'kube-sim/apiserver';
import { VPA_CRD_MANIFESTS } from '../../src/api/vpa-crd-manifests.ts';
import { validateVpa } from '../../src/api/validate-vpa.ts';
import { MANIFESTS, parseManifests } from './kustomize.ts';

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  required?: string[];
  enum?: unknown[];
  minimum?: number;
  pattern?: string;
  'x-kubernetes-validations'?: { rule: string; message: string }[];
}

async function v1Schema(): Promise<{ schema: Schema; columns: { name: string; jsonPath: string; priority?: number }[] }> {
  const crd = parseManifests(await readFile(join(MANIFESTS, 'crds', 'verticalpodautoscalers.yaml'), 'utf8'))[0] as unknown as {
    spec: {
      versions: { name: string; schema: { openAPIV3Schema: Schema }; additionalPrinterColumns: { name: string; jsonPath: string; priority?: number }[] }[];
    };
  };
  const v1 = crd.spec.versions.find((v) => v.name === 'v1');
  assert.ok(v1);
  return { schema: v1.schema.openAPIV3Schema, columns: v1.additionalPrinterColumns };
}

/** Every constraint of the schema as `path: constraint` lines (quantities' pattern abbreviated). */
function constraints(node: Schema, path: string, out: string[] = []): string[] {
  if (node.required) out.push(`${path}: required ${node.required.join(',')}`);
  if (node.enum) out.push(`${path}: enum ${node.enum.join(',')}`);
  if (node.minimum !== undefined) out.push(`${path}: minimum ${node.minimum}`);
  if (node.pattern) out.push(`${path}: quantity`);
  for (const v of node['x-kubernetes-validations'] ?? []) out.push(`${path}: rule ${v.rule}`);
  for (const [key, child] of Object.entries(node.properties ?? {})) constraints(child, `${path}.${key}`, out);
  if (node.items) constraints(node.items, `${path}[]`, out);
  if (typeof node.additionalProperties === 'object') constraints(node.additionalProperties, `${path}.*`, out);
  return out;
}

test("the CRD has upstream 1.8's fields and exactly its constraints, so it refuses nothing upstream's accepts", async () => {
  const { schema, columns } = await v1Schema();
  const spec = schema.properties!['spec']!;
  const policy = spec.properties!['resourcePolicy']!.properties!['containerPolicies']!.items!;
  assert.deepEqual(Object.keys(spec.properties!).sort(), ['recommenders', 'resourcePolicy', 'startupBoost', 'targetRef', 'updatePolicy']);
  assert.deepEqual(Object.keys(spec.properties!['updatePolicy']!.properties!).sort(), [
    'evictAfterOOMSeconds',
    'evictionRequirements',
    'minReplicas',
    'updateMode',
  ]);
  assert.deepEqual(Object.keys(policy.properties!).sort(), [
    'containerName',
    'controlledResources',
    'controlledValues',
    'maxAllowed',
    'memoryAggregationIntervalCount',
    'memoryAggregationIntervalSeconds',
    'minAllowed',
    'mode',
    'oomBumpUpRatio',
    'oomMinBumpUp',
    'startupBoost',
  ]);
  const boost = (at: string) => [
    `${at}.cpu: required type`,
    `${at}.cpu: rule (self.type == 'Factor') == has(self.factor)`,
    `${at}.cpu: rule (self.type == 'Quantity') == has(self.quantity)`,
    `${at}.cpu.type: enum Factor,Quantity`,
    `${at}.cpu.quantity: quantity`,
  ];
  const policyAt = '.spec.resourcePolicy.containerPolicies[]';
  const recAt = '.status.recommendation.containerRecommendations[]';
  assert.deepEqual(
    constraints(schema, '').sort(),
    [
      ': required spec',
      '.spec: required targetRef',
      '.spec.targetRef: required kind,name',
      '.spec.updatePolicy.updateMode: enum Off,Initial,Recreate,InPlaceOrRecreate,InPlace,Auto',
      '.spec.updatePolicy.evictAfterOOMSeconds: minimum 1',
      '.spec.updatePolicy.evictionRequirements[]: required changeRequirement,resources',
      '.spec.updatePolicy.evictionRequirements[].changeRequirement: enum TargetHigherThanRequests,TargetLowerThanRequests',
      `${policyAt}.mode: enum Auto,Off`,
      `${policyAt}.minAllowed.*: quantity`,
      `${policyAt}.maxAllowed.*: quantity`,
      `${policyAt}.controlledValues: enum RequestsAndLimits,RequestsOnly`,
      `${policyAt}.oomBumpUpRatio: quantity`,
      `${policyAt}.oomMinBumpUp: quantity`,
      `${policyAt}.memoryAggregationIntervalSeconds: minimum 1`,
      `${policyAt}.memoryAggregationIntervalCount: minimum 1`,
      ...boost(`${policyAt}.startupBoost`),
      '.spec.recommenders[]: required name',
      ...boost('.spec.startupBoost'),
      '.status.observedGeneration: minimum 0',
      `${recAt}: required target`,
      ...['target', 'lowerBound', 'upperBound', 'uncappedTarget'].map((b) => `${recAt}.${b}.*: quantity`),
      '.status.conditions[]: required type,status',
      '.status.conditions[].observedGeneration: minimum 0',
    ].sort(),
  );
  assert.deepEqual(
    columns.map((c) => `${c.name}${c.priority ? ` (priority ${c.priority})` : ''}: ${c.jsonPath}`),
    [
      'Mode: .spec.updatePolicy.updateMode',
      'CPU: .status.recommendation.containerRecommendations[0].target.cpu',
      'Mem: .status.recommendation.containerRecommendations[0].target.memory',
      "Provided: .status.conditions[?(@.type=='RecommendationProvided')].status",
      'Age: .metadata.creationTimestamp',
      'MinReplicas (priority 1): .spec.updatePolicy.minReplicas',
      'OOMSeconds (priority 1): .spec.updatePolicy.evictAfterOOMSeconds',
    ],
  );
});

test('a VPA using every upstream 1.8 field is stored unpruned and passes validateVpa', async (t) => {
  const server = new KubeSimApiServer({ crdManifests: VPA_CRD_MANIFESTS });
  await server.start();
  t.after(() => server.close());
  const kc = new k8s.KubeConfig();
  kc.loadFromString(server.kubeconfig());
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  const spec = {
    targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    updatePolicy: {
      updateMode: 'InPlace',
      minReplicas: 2,
      evictAfterOOMSeconds: 600,
      evictionRequirements: [{ resources: ['memory'], changeRequirement: 'TargetHigherThanRequests' }],
    },
    resourcePolicy: {
      containerPolicies: [
        {
          containerName: '*',
          mode: 'Auto',
          minAllowed: { cpu: '50m' },
          maxAllowed: { memory: '4Gi' },
          controlledResources: ['cpu', 'memory'],
          controlledValues: 'RequestsOnly',
          oomBumpUpRatio: '1.5',
          oomMinBumpUp: '100Mi',
          memoryAggregationIntervalSeconds: 3600,
          memoryAggregationIntervalCount: 24,
          startupBoost: { cpu: { type: 'Quantity', quantity: '500m', durationSeconds: 30 } },
        },
      ],
    },
    recommenders: [{ name: 'default' }],
    startupBoost: { cpu: { type: 'Factor', factor: 2, durationSeconds: 15 } },
  };
  const created = (await custom.createNamespacedCustomObject({
    group: 'autoscaling.k8s.io',
    version: 'v1',
    plural: 'verticalpodautoscalers',
    namespace: 'default',
    body: { apiVersion: 'autoscaling.k8s.io/v1', kind: 'VerticalPodAutoscaler', metadata: { name: 'every-field' }, spec },
  })) as { spec: unknown };
  assert.deepEqual(created.spec, spec);
  const validation = validateVpa(created);
  assert.ok(validation.ok, validation.ok ? '' : JSON.stringify(validation.errors));
});

test("kubectl get vpa on kube-sim prints the CRD's printer columns, PROVIDED and the wide ones included", async (t) => {
  const { columns } = await v1Schema();
  const server = new KubeSimApiServer({ crdManifests: VPA_CRD_MANIFESTS });
  await server.start();
  t.after(() => server.close());
  const kc = new k8s.KubeConfig();
  kc.loadFromString(server.kubeconfig());
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  const vpa = {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: 'web' },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, updatePolicy: { updateMode: 'Recreate', minReplicas: 2 } },
  };
  await custom.createNamespacedCustomObject({ group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers', namespace: 'default', body: vpa });
  const status = {
    recommendation: { containerRecommendations: [{ containerName: 'app', target: { cpu: '224m', memory: '250Mi' } }] },
    conditions: [{ type: 'RecommendationProvided', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }],
  };
  await custom.patchNamespacedCustomObjectStatus(
    { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers', namespace: 'default', name: 'web', body: { status } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  const cluster = kc.getCurrentCluster()!;
  const user = kc.getCurrentUser()!;
  const { Agent, request } = await import('node:https');
  const table = await new Promise<{ columnDefinitions: { name: string; priority: number }[]; rows: { cells: unknown[] }[] }>((resolve, reject) => {
    const url = new URL(`${cluster.server}/apis/autoscaling.k8s.io/v1/namespaces/default/verticalpodautoscalers`);
    const agent = new Agent({
      ca: Buffer.from(cluster.caData!, 'base64'),
      ...(user.certData ? { cert: Buffer.from(user.certData, 'base64'), key: Buffer.from(user.keyData!, 'base64') } : {}),
    });
    const headers: Record<string, string> = {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
      ...(user.token ? { authorization: `Bearer ${user.token}` } : {}),
    };
    request(url, { agent, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve(JSON.parse(body)));
    })
      .on('error', reject)
      .end();
  });
  assert.deepEqual(
    table.columnDefinitions.map((c) => `${c.name}${c.priority ? ` (priority ${c.priority})` : ''}`),
    ['Name', ...columns.map((c) => `${c.name}${c.priority ? ` (priority ${c.priority})` : ''}`)],
  );
  const byName = Object.fromEntries(table.columnDefinitions.map((c, i) => [c.name, table.rows[0]!.cells[i]]));
  assert.deepEqual(
    [byName['Mode'], byName['CPU'], byName['Mem'], byName['Provided'], byName['MinReplicas'], byName['OOMSeconds']],
    ['Recreate', '224m', '250Mi', 'True', 2, null],
  );
});
