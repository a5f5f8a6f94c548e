import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { podManifest, rawRequest, startSim, statusBody, statusCode, type SimFixture } from './sim-fixture.ts';

let sim: SimFixture;
before(async () => {
  sim = await startSim();
  const body = podManifest('p', { cpu: '100m' });
  body.spec?.containers.push({ name: 'side', image: 'side:1' });
  await sim.core.createNamespacedPod({ namespace: 'default', body });
});
after(async () => {
  await sim?.close();
});

const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

interface Case {
  name: string;
  contentType: string;
  body: unknown;
  query?: string;
  status: number;
  reason?: string;
  check?: (obj: k8s.V1Pod) => void;
}

// prettier-ignore: one row per line, read as a table
const cases: Case[] = [
  {
    name: 'JSON patch replaces an image',
    contentType: JSON_PATCH,
    body: [{ op: 'replace', path: '/spec/containers/1/image', value: 'side:2' }],
    status: 200,
    check: (p) => assert.equal(p.spec?.containers[1]?.image, 'side:2'),
  },
  {
    name: 'JSON patch with a failing test op is 422',
    contentType: JSON_PATCH,
    body: [{ op: 'test', path: '/metadata/name', value: 'other' }],
    status: 422,
    reason: 'Invalid',
  },
  {
    name: 'JSON patch on a missing path is 422',
    contentType: JSON_PATCH,
    body: [{ op: 'replace', path: '/spec/nope/0', value: 1 }],
    status: 422,
    reason: 'Invalid',
  },
  {
    name: 'merge patch adds a label',
    contentType: MERGE,
    body: { metadata: { labels: { team: 'a' } } },
    status: 200,
    check: (p) => assert.equal(p.metadata?.labels?.['team'], 'a'),
  },
  {
    name: 'strategic merge keeps the other container',
    contentType: STRATEGIC,
    body: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } },
    status: 200,
    check: (p) =>
      assert.deepEqual(
        p.spec?.containers.map((c) => `${c.name}=${c.image}`),
        ['app=nginx:1.28', 'side=side:2'],
      ),
  },
  {
    name: 'merge patch replacing the containers list is a forbidden pod update (422)',
    contentType: MERGE,
    body: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } },
    status: 422,
    reason: 'Invalid',
  },
  {
    name: 'changing resources through the pod itself is forbidden on 1.33 (422)',
    contentType: STRATEGIC,
    body: { spec: { containers: [{ name: 'app', resources: { requests: { cpu: '200m' } } }] } },
    status: 422,
    reason: 'Invalid',
  },
  {
    name: 'a stale resourceVersion in a patch is 409',
    contentType: MERGE,
    body: { metadata: { resourceVersion: '1', labels: { x: 'y' } } },
    status: 409,
    reason: 'Conflict',
  },
  { name: 'an unknown patch content type is 415', contentType: 'application/json', body: { metadata: {} }, status: 415, reason: 'UnsupportedMediaType' },
  { name: 'apply patch without fieldManager is 422', contentType: APPLY, body: 'metadata:\n  labels:\n    applied: "yes"\n', status: 422, reason: 'Invalid' },
  {
    name: 'apply patch with fieldManager merges',
    contentType: APPLY,
    query: '?fieldManager=test',
    body: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n    applied: "yes"\n',
    status: 200,
    check: (p) => assert.equal(p.metadata?.labels?.['applied'], 'yes'),
  },
];

for (const c of cases) {
  test(`patch: ${c.name}`, async () => {
    const res = await rawRequest(sim.server, 'PATCH', `/api/v1/namespaces/default/pods/p${c.query ?? ''}`, c.body, { contentType: c.contentType });
    assert.equal(res.status, c.status, res.text);
    const body = res.json() as k8s.V1Pod & { reason?: string };
    if (c.reason) assert.equal(body.reason, c.reason);
    c.check?.(body);
  });
}

test('the pod update rule message is the real one', async () => {
  await assert.rejects(
    sim.core.patchNamespacedPod(
      { namespace: 'default', name: 'p', body: { spec: { restartPolicy: 'Never' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    ),
    (err) => {
      assert.equal(statusCode(err), 422);
      assert.match(
        statusBody(err).message ?? '',
        /^Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/,
      );
      return true;
    },
  );
});

test('status subresource takes only status; the main resource ignores status', async () => {
  const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
  const afterStatus = await sim.core.patchNamespacedPodStatus(
    { namespace: 'default', name: 'p', body: { status: { phase: 'Running' }, metadata: { labels: { via: 'status' } } } },
    merge,
  );
  assert.equal(afterStatus.status?.phase, 'Running');
  assert.equal(afterStatus.metadata?.labels?.['via'], undefined);
  const afterMain = await sim.core.patchNamespacedPod({ namespace: 'default', name: 'p', body: { status: { phase: 'Failed' } } }, merge);
  assert.equal(afterMain.status?.phase, 'Running');
});

test('generation is bumped by spec changes only', async () => {
  const deployment: k8s.V1Deployment = {
    metadata: { name: 'gen' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'gen' } },
      template: { metadata: { labels: { app: 'gen' } }, spec: { containers: [{ name: 'c', image: 'c:1' }] } },
    },
  };
  const created = await sim.apps.createNamespacedDeployment({ namespace: 'default', body: deployment });
  assert.equal(created.metadata?.generation, 1);
  const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
  const labelled = await sim.apps.patchNamespacedDeployment({ namespace: 'default', name: 'gen', body: { metadata: { labels: { a: 'b' } } } }, merge);
  assert.equal(labelled.metadata?.generation, 1);
  const scaled = await sim.apps.patchNamespacedDeploymentScale({ namespace: 'default', name: 'gen', body: { spec: { replicas: 4 } } }, merge);
  assert.equal(scaled.spec?.replicas, 4);
  assert.equal(scaled.kind, 'Scale');
  assert.equal(scaled.status?.selector, 'app=gen');
  const read = await sim.apps.readNamespacedDeployment({ namespace: 'default', name: 'gen' });
  assert.equal(read.metadata?.generation, 2);
  const status = await sim.apps.patchNamespacedDeploymentStatus({ namespace: 'default', name: 'gen', body: { status: { readyReplicas: 4 } } }, merge);
  assert.equal(status.metadata?.generation, 2);
});

test('strategic merge patch on a custom resource is 415', async () => {
  const res = await rawRequest(
    sim.server,
    'PATCH',
    '/apis/autoscaling.k8s.io/v1/namespaces/default/verticalpodautoscalers/x',
    { spec: {} },
    { contentType: STRATEGIC },
  );
  assert.equal(res.status, 415);
  assert.match(
    (res.json() as { message: string }).message,
    /accepted media types include: application\/json-patch\+json, application\/merge-patch\+json, application\/apply-patch\+yaml$/,
  );
});
