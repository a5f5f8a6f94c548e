/**
 * Pod-level resources (`spec.resources`) end to end on kube-sim: the updater resizes them in place
 * on 1.36 and 1.37 (KEP-5419) to the sum of the containers' recommendations, through the resize
 * subresource, and the simulated kubelet applies them, same pod; on 1.35 (no pod-level resize)
 * InPlace leaves the pod alone and says why, and sends nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createVpa, deployment, podsOf, startUpdaterFixture, summary, type UpdaterFixture } from './updater-fixture.ts';

const POD_LEVEL = { requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '400m', memory: '128Mi' } };
const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x));
const writes = (calls: readonly string[]) => calls.filter((c) => !c.startsWith('event')).map((c) => c.split(' ')[0]);

async function soloWithPodLevel(t: { after(fn: () => Promise<void>): void }, version: '1.35' | '1.36' | '1.37'): Promise<UpdaterFixture> {
  const f = await startUpdaterFixture(version, [{ cpu: '2', memory: '8Gi' }]);
  t.after(() => f.close());
  const body = deployment('solo', 1, [
    { name: 'app', image: 'nginx:1.27' },
    { name: 'log', image: 'busybox', resources: { requests: { cpu: '50m', memory: '16Mi' } } },
  ]);
  body.spec!.template.spec!.resources = POD_LEVEL;
  await f.apps.createNamespacedDeployment({ namespace: 'default', body });
  await f.tick(2000);
  // app 300m (lowerBound 300m); log has no recommendation: it counts with its own 50m / 16Mi.
  const app = {
    containerName: 'app',
    target: { cpu: '300m', memory: '48Mi' },
    lowerBound: { cpu: '300m', memory: '48Mi' },
    upperBound: { cpu: '500m', memory: '96Mi' },
  };
  await createVpa(f, 'solo', 'InPlace', [app], { minReplicas: 1 });
  return f;
}

for (const version of ['1.36', '1.37'] as const) {
  test(`updater e2e ${version}: pod-level values resized in place to the containers' sum (cpu 200m/400m -> 350m/700m), the containers' own values untouched`, async (t) => {
    const f = await soloWithPodLevel(t, version);
    const [before] = await podsOf(f, 'solo');
    const first = await f.loop();
    assert.deepEqual(summary(first), ['solo ResizeInPlace OutsideBounds']);
    assert.deepEqual(
      first.results.map((r) => r.outcome),
      ['applied'],
    );
    // The simulated kubelet applies the resize over a few of its steps, as a real one does.
    const resizing = (p: { status?: { conditions?: { type: string }[] } } | undefined) =>
      (p?.status?.conditions ?? []).some((c) => c.type.startsWith('PodResize'));
    let [after] = await podsOf(f, 'solo');
    for (let step = 0; step < 10 && (step === 0 || resizing(after)); step += 1) {
      await f.tick(2000);
      [after] = await podsOf(f, 'solo');
    }
    assert.equal(after!.metadata!.uid, before!.metadata!.uid, 'the same pod');
    assert.deepEqual(plain(after!.spec!.resources), { requests: { cpu: '350m', memory: '64Mi' }, limits: { cpu: '700m', memory: '128Mi' } });
    assert.deepEqual(plain(after!.spec!.containers.map((c) => c.resources)), [{}, { requests: { cpu: '50m', memory: '16Mi' } }]);
    assert.deepEqual(after!.status?.conditions?.filter((c) => c.type.startsWith('PodResize')) ?? [], [], 'no resize pending or in progress');
    const next = await f.loop();
    assert.deepEqual(summary(next), ['solo Skip WithinBounds']);
    assert.deepEqual(writes(f.calls), ['resize']);
  });
}

test('updater e2e 1.35: pod-level values cannot be resized in place: InPlace leaves the pod alone, says why, sends nothing', async (t) => {
  const f = await soloWithPodLevel(t, '1.35');
  const first = await f.loop();
  assert.deepEqual(summary(first), ['solo Skip InPlaceUnsupported']);
  assert.match(
    first.decisions[0]!.message,
    /pod-level resources are resized in place only from Kubernetes 1\.36 \(the API server is 1\.35\); updateMode InPlace never evicts/,
  );
  assert.deepEqual(writes(f.calls), []);
});
