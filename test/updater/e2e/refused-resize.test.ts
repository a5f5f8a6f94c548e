/**
 * Kubernetes 1.36+ refuses a resize beyond the node's allocatable at admission (403, cause
 * NodeCapacity) where 1.35 accepted it and the kubelet marked it Infeasible (fallbacks.test.ts).
 * End to end on kube-sim 1.36 and 1.37: the refusal is handled as Infeasible was: InPlaceOrRecreate
 * evicts in the next loop (FallbackInfeasible), InPlace never sends the same resize again (no retry
 * loop), and a smaller recommendation that fits is sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createVpa, podsOf, summary, webBeyondItsNode } from './updater-fixture.ts';

const MEM = { memory: '256Mi' };
const writes = (calls: readonly string[]) => calls.filter((c) => !c.startsWith('event')).map((c) => c.split(' ')[0]);

for (const version of ['1.36', '1.37'] as const) {
  test(`updater e2e ${version}: a resize refused for the node's capacity falls back to eviction in the next loop, as Infeasible did`, async (t) => {
    const f = await webBeyondItsNode(t, version, 'InPlaceOrRecreate');
    const [before] = await podsOf(f, 'web');
    const first = await f.loop();
    assert.deepEqual(summary(first), ['web ResizeInPlace OutsideBounds']);
    assert.deepEqual(
      first.results.map((r) => r.outcome),
      ['infeasible'],
    );
    assert.match(first.results[0]!.detail ?? '', /node didn't have enough allocatable resources: cpu, requested: 3000, allocatable: 2000/);
    assert.ok(f.calls.includes('event Pod/ResizeInfeasible'), f.calls.join());
    await f.tick(0);
    const fallback = await f.loop();
    assert.deepEqual(summary(fallback), ['web Evict FallbackInfeasible']);
    assert.match(fallback.decisions.find((d) => d.action === 'Evict')!.message, /refused by the API server: .*node didn't have enough allocatable resources/);
    assert.deepEqual(
      fallback.results.map((r) => r.outcome),
      ['applied'],
    );
    await f.tick(2000);
    await f.tick(2000);
    const after = await podsOf(f, 'web');
    assert.equal(after.length, 1);
    assert.notEqual(after[0]!.metadata!.uid, before!.metadata!.uid, 'a new pod');
    assert.deepEqual(writes(f.calls), ['resize', 'evict']);
  });

  test(`updater e2e ${version}: in InPlace mode a refused resize is not sent again; a smaller recommendation that fits is`, async (t) => {
    const f = await webBeyondItsNode(t, version, 'InPlace');
    assert.deepEqual(
      (await f.loop()).results.map((r) => r.outcome),
      ['infeasible'],
    );
    for (let i = 0; i < 3; i += 1) {
      await f.tick(20 * 60_000);
      assert.deepEqual(summary(await f.loop()), ['web Wait ResizeInfeasible']);
    }
    assert.deepEqual(writes(f.calls), ['resize'], 'one request, not one per loop');

    await f.custom.deleteNamespacedCustomObject({
      group: 'autoscaling.k8s.io',
      version: 'v1',
      namespace: 'default',
      plural: 'verticalpodautoscalers',
      name: 'web',
    });
    await createVpa(f, 'web', 'InPlace', [{ containerName: 'app', target: { cpu: '1800m', ...MEM }, lowerBound: { cpu: '1700m', ...MEM } }], {
      minReplicas: 1,
    });
    await f.tick(0);
    const smaller = await f.loop();
    assert.deepEqual(summary(smaller), ['web ResizeInPlace ResizeSuperseded']);
    assert.deepEqual(
      smaller.results.map((r) => r.outcome),
      ['applied'],
    );
    assert.deepEqual(writes(f.calls), ['resize', 'resize']);
  });
}
