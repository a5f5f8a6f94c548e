import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { podManifest, startSim, statusCode, type SimFixture } from './sim-fixture.ts';

// On 1.32 resize went through the pod itself: cpu and memory requests/limits may change on a pod
// update, nothing else in the spec (resizePolicy included) besides the always-mutable fields.
let sim: SimFixture;
before(async () => {
  sim = await startSim({ serverVersion: '1.32' });
  const body = podManifest('legacy', { cpu: '100m', memory: '64Mi' });
  const c = body.spec?.containers[0];
  if (c) c.resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }];
  await sim.core.createNamespacedPod({ namespace: 'default', body });
});
after(async () => {
  await sim?.close();
});

const strategic = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch);
const cases: { name: string; container: Record<string, unknown>; status: number }[] = [
  { name: 'cpu and memory requests may change', container: { resources: { requests: { cpu: '200m', memory: '128Mi' } } }, status: 200 },
  { name: 'an ephemeral-storage request may not', container: { resources: { requests: { 'ephemeral-storage': '1Gi' } } }, status: 422 },
  { name: 'resizePolicy may not', container: { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] }, status: 422 },
  { name: 'the image may', container: { image: 'nginx:1.28' }, status: 200 },
];
for (const c of cases) {
  test(`1.32 pod update: ${c.name}`, async () => {
    let status = 200;
    try {
      await sim.core.patchNamespacedPod({ namespace: 'default', name: 'legacy', body: { spec: { containers: [{ name: 'app', ...c.container }] } } }, strategic);
    } catch (err) {
      status = statusCode(err) ?? -1;
    }
    assert.equal(status, c.status);
  });
}
