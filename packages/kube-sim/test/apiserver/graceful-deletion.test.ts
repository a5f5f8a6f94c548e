import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { podManifest, startSim, type SimFixture } from './sim-fixture.ts';

const NOW = Date.parse('2026-03-01T10:00:00Z');
let sim: SimFixture;
before(async () => {
  sim = await startSim({ gracefulPodDeletion: true, now: () => NOW });
});
after(async () => {
  await sim?.close();
});

async function boundPod(name: string, grace?: number): Promise<void> {
  const body = podManifest(name, { nodeName: 'node-1' });
  if (grace !== undefined && body.spec) body.spec.terminationGracePeriodSeconds = grace;
  await sim.core.createNamespacedPod({ namespace: 'default', body });
  sim.server.store.mutate('pods', 'default', name, (d) => {
    d.status = { ...(d.status as object), phase: 'Running' };
  });
}

test('deleting a bound pod marks it with deletionTimestamp = now + grace; status writes keep it; the kubelet removes it', async () => {
  await boundPod('g1');
  const marked = await sim.core.deleteNamespacedPod({ namespace: 'default', name: 'g1' });
  assert.equal(marked.metadata?.deletionTimestamp?.toISOString(), '2026-03-01T10:00:30.000Z');
  assert.equal(marked.metadata?.deletionGracePeriodSeconds, 30);
  assert.equal(marked.metadata?.generation, 2, 'the first mark for deletion bumps the generation (1 -> 2)');
  await sim.core.patchNamespacedPodStatus(
    { namespace: 'default', name: 'g1', body: { status: { phase: 'Running' } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  const still = sim.server.store.get('pods', 'default', 'g1');
  assert.ok(still, 'a status write does not complete a graceful deletion');
  sim.server.store.delete('pods', 'default', 'g1');
  assert.equal(sim.server.store.get('pods', 'default', 'g1'), undefined);
});

const cases: { name: string; setup: () => Promise<void>; options: k8s.CoreV1ApiDeleteNamespacedPodRequest; removed: boolean }[] = [
  {
    name: 'gracePeriodSeconds 0 removes at once',
    setup: () => boundPod('g2'),
    options: { namespace: 'default', name: 'g2', gracePeriodSeconds: 0 },
    removed: true,
  },
  {
    name: 'an unbound pod is removed at once',
    setup: async () => void (await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('g3') })),
    options: { namespace: 'default', name: 'g3' },
    removed: true,
  },
  { name: 'terminationGracePeriodSeconds 5 is used', setup: () => boundPod('g4', 5), options: { namespace: 'default', name: 'g4' }, removed: false },
];
for (const c of cases) {
  test(`graceful deletion: ${c.name}`, async () => {
    await c.setup();
    await sim.core.deleteNamespacedPod(c.options);
    const pod = sim.server.store.get('pods', 'default', c.options.name);
    assert.equal(pod === undefined, c.removed);
    if (c.options.name === 'g4') assert.equal(pod?.metadata.deletionTimestamp, '2026-03-01T10:00:05Z');
  });
}

test('eviction deletes gracefully too', async () => {
  await boundPod('g5');
  await sim.core.createNamespacedPodEviction({ namespace: 'default', name: 'g5', body: { metadata: { name: 'g5' } } });
  assert.equal(sim.server.store.get('pods', 'default', 'g5')?.metadata.deletionTimestamp, '2026-03-01T10:00:30Z');
});
