/**
 * Runtime-aware memory on kube-sim 1.35: a PostgreSQL Deployment (start-sized, memory resizePolicy
 * NotRequired) whose recommendation lowers memory: mode InPlace leaves memory alone
 * (`StartSizedMemory`), InPlaceOrRecreate evicts the pod so it starts again with the new memory; the VPA gets one `ResizePolicyMismatch` Warning Event.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import type { ContainerMemoryUsage, MemoryUsageSource } from '../../../src/metrics/memory-usage-source.ts';
import { createVpa, deployment, startUpdaterFixture, summary } from './updater-fixture.ts';

const MiB = 1024 * 1024;

class Peaks implements MemoryUsageSource {
  constructor(private readonly pods: () => Promise<string[]>) {}
  async memoryUsage(): Promise<ContainerMemoryUsage[]> {
    return (await this.pods()).map((pod) => ({ key: { namespace: 'default', pod, container: 'postgres' }, peakBytes: 600 * MiB }));
  }
}

test('updater e2e 1.35: PostgreSQL with memory NotRequired: InPlace leaves memory alone, InPlaceOrRecreate recreates, the VPA is warned once', async (t) => {
  const holder: { names?: () => Promise<string[]> } = {};
  const f = await startUpdaterFixture('1.35', [{ cpu: '8', memory: '16Gi' }], {}, { usage: new Peaks(() => holder.names!()) });
  t.after(() => f.close());
  holder.names = async () => (await f.core.listNamespacedPod({ namespace: 'default' })).items.map((p) => p.metadata!.name!);
  const resources = { requests: { cpu: '500m', memory: '2Gi' }, limits: { memory: '2Gi' } };
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('db', 1, [{ name: 'postgres', image: 'postgres:16', resources }]) });
  await f.tick(2000);
  const lower = [
    {
      containerName: 'postgres',
      target: { cpu: '500m', memory: '1Gi' },
      lowerBound: { cpu: '400m', memory: '900Mi' },
      upperBound: { cpu: '600m', memory: '1200Mi' },
    },
  ];
  await createVpa(f, 'db', 'InPlace', lower);

  const first = await f.loop();
  assert.deepEqual(summary(first), ['db Skip StartSizedMemory']);
  assert.match(first.decisions[0]!.message, /postgresql \(from image postgres:16\), which sizes its memory at start/);
  await f.loop();
  assert.equal(f.calls.filter((c) => c === 'event VerticalPodAutoscaler/ResizePolicyMismatch').length, 1, 'told once');
  assert.equal(f.calls.filter((c) => c.startsWith('resize')).length, 0);

  await f.custom.patchNamespacedCustomObject(
    {
      group: 'autoscaling.k8s.io',
      version: 'v1',
      namespace: 'default',
      plural: 'verticalpodautoscalers',
      name: 'db',
      body: { spec: { updatePolicy: { updateMode: 'InPlaceOrRecreate', minReplicas: 1 } } },
    },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  await f.tick(1000);
  const recreate = await f.loop();
  assert.deepEqual(summary(recreate), ['db Evict OutsideBounds']);
  assert.match(
    recreate.decisions[0]!.message,
    /postgres sizes its memory at start \(resizePolicy memory NotRequired\): recreated so it starts with the new memory/,
  );
  assert.deepEqual(
    recreate.results.map((r) => r.outcome),
    ['applied'],
  );
});
