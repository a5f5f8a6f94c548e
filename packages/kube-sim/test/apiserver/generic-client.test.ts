import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { rawRequest, startSim, type SimFixture } from './sim-fixture.ts';

let sim: SimFixture;
before(async () => {
  sim = await startSim();
});
after(async () => {
  await sim?.close();
});

interface Vpa extends k8s.KubernetesObject {
  spec: { targetRef: { kind: string; name: string }; updatePolicy?: { updateMode: string } };
  status?: { recommendation?: { containerRecommendations: { containerName: string; target: Record<string, string> }[] } };
}

test('KubernetesObjectApi: discovery-driven create, read, server-side apply, list and delete of a VPA', async () => {
  const vpa: Vpa = {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: 'ssa', namespace: 'default' },
    spec: { targetRef: { kind: 'Deployment', name: 'web' } },
  };
  const created = await sim.objects.create(vpa);
  assert.equal(created.metadata?.name, 'ssa');
  const read = await sim.objects.read<Vpa>({
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: 'ssa', namespace: 'default' },
  });
  assert.equal(read.spec.targetRef.name, 'web');
  const applied = await sim.objects.patch<Vpa>(
    { ...vpa, spec: { ...vpa.spec, updatePolicy: { updateMode: 'Off' } } },
    undefined,
    undefined,
    'tailor',
    true,
    k8s.PatchStrategy.ServerSideApply,
  );
  assert.equal(applied.spec.updatePolicy?.updateMode, 'Off');
  const listed = await sim.objects.list<Vpa>('autoscaling.k8s.io/v1', 'VerticalPodAutoscaler', 'default');
  assert.deepEqual(
    listed.items.map((v) => v.metadata?.name),
    ['ssa'],
  );
  await sim.objects.delete({ apiVersion: 'autoscaling.k8s.io/v1', kind: 'VerticalPodAutoscaler', metadata: { name: 'ssa', namespace: 'default' } });
  assert.equal(sim.server.store.count('verticalpodautoscalers.autoscaling.k8s.io'), 0);
});

test('server-side apply creates a missing object and treats custom-resource lists as atomic', async () => {
  const body =
    'apiVersion: autoscaling.k8s.io/v1\nkind: VerticalPodAutoscaler\nmetadata:\n  name: applied\nspec:\n  targetRef: {kind: Deployment, name: web}\n  recommenders: [{name: a}, {name: b}]\n';
  const path = '/apis/autoscaling.k8s.io/v1/namespaces/default/verticalpodautoscalers/applied?fieldManager=tailor';
  const created = await rawRequest(sim.server, 'PATCH', path, body, { contentType: 'application/apply-patch+yaml' });
  assert.equal(created.status, 201, created.text);
  const updated = await rawRequest(sim.server, 'PATCH', path, body.replace('[{name: a}, {name: b}]', '[{name: c}]'), {
    contentType: 'application/apply-patch+yaml',
  });
  assert.equal(updated.status, 200);
  assert.deepEqual((updated.json() as Vpa & { spec: { recommenders: unknown } }).spec.recommenders, [{ name: 'c' }]);
});

test('dryRun=All runs admission and validation but stores nothing', async () => {
  const ok = await rawRequest(sim.server, 'POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { metadata: { name: 'dry' } });
  assert.equal(ok.status, 201);
  assert.equal(sim.server.store.get('configmaps', 'default', 'dry'), undefined);
  const invalid = await rawRequest(sim.server, 'POST', '/api/v1/namespaces/default/pods?dryRun=All', { metadata: { name: 'dry' }, spec: { containers: [] } });
  assert.equal(invalid.status, 422);
});

test('deletecollection deletes what the selector matches', async () => {
  for (const [name, group] of [
    ['c1', 'x'],
    ['c2', 'x'],
    ['c3', 'y'],
  ])
    await sim.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name, labels: { group: group as string } } } });
  await sim.core.deleteCollectionNamespacedConfigMap({ namespace: 'default', labelSelector: 'group=x' });
  const left = await sim.core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'group' });
  assert.deepEqual(
    left.items.map((c) => c.metadata?.name),
    ['c3'],
  );
});
