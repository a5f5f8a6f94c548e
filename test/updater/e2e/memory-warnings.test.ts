/**
 * Tailor's own early memory warnings on kube-sim 1.35 with a double of Prometheus: a container that
 * stays above 75% of its memory limit gets a `MemoryHigh` Warning Event (pod and VPA), above 85%
 * `MemoryCritical`, two pods of one Deployment at once `WorkloadMemoryPressure` on the VPA; each is
 * told once while it lasts and again after it ended and came back; the metrics follow every loop.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as k8s from '@kubernetes/client-node';
import type { ContainerMemoryUsage, MemoryUsageSource } from '../../../src/metrics/memory-usage-source.ts';
import { createVpa, deployment, podsOf, startUpdaterFixture, type UpdaterFixture } from './updater-fixture.ts';

const MiB = 1024 * 1024;

/** Sustained working set per pod name (set by the test). */
class UsageByPod implements MemoryUsageSource {
  sustained = new Map<string, number>();
  async memoryUsage(): Promise<ContainerMemoryUsage[]> {
    return [...this.sustained].map(([pod, bytes]) => ({ key: { namespace: 'default', pod, container: 'app' }, peakBytes: bytes, sustainedBytes: bytes }));
  }
}

async function metricValue(f: UpdaterFixture, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = await f.registry.getSingleMetric(name)!.get();
  return metric.values.find((x) => Object.entries(labels).every(([k, v]) => x.labels[k] === v))?.value ?? 0;
}

async function warningEvents(f: UpdaterFixture): Promise<string[]> {
  const events = await f.core.listNamespacedEvent({ namespace: 'default' });
  return events.items
    .filter((e) => ['MemoryHigh', 'MemoryCritical', 'WorkloadMemoryPressure'].includes(e.reason ?? ''))
    .map((e) => `${e.involvedObject.kind}/${(e.involvedObject.name ?? '').replace(/-[a-z0-9]+-[a-z0-9]+$/, '-x')} ${e.type} ${e.reason}`)
    .sort();
}

test('updater e2e 1.35: 75% of the limit warns, 85% escalates, two pods of one workload are flagged, each told once', async (t) => {
  const usage = new UsageByPod();
  const f = await startUpdaterFixture('1.35', [{ cpu: '8', memory: '16Gi' }], {}, { usage });
  t.after(() => f.close());
  const resources = { requests: { cpu: '100m', memory: '512Mi' }, limits: { memory: '1Gi' } };
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', 3, [{ name: 'app', image: 'nginx:1.27', resources }]) });
  await f.tick(2000);
  // Off: the updater changes nothing, the warnings still tell.
  await createVpa(f, 'web', 'Off', [{ containerName: 'app', target: { cpu: '100m', memory: '512Mi' } }]);
  const pods = (await podsOf(f, 'web')).map((p: k8s.V1Pod) => p.metadata!.name!).sort();
  assert.equal(pods.length, 3);
  const [a, b, c] = pods as [string, string, string];

  // 700 MiB (68%) everywhere: nothing.
  for (const p of pods) usage.sustained.set(p, 700 * MiB);
  const quiet = await f.loop();
  assert.deepEqual(quiet.memoryWarnings, { containers: [], workloads: [] });
  assert.deepEqual(await warningEvents(f), []);

  // a at 800 MiB (78%): warning on the pod and the VPA; one pod only: no workload flag.
  usage.sustained.set(a, 800 * MiB);
  const one = await f.loop();
  assert.deepEqual(
    one.memoryWarnings.containers.map((w) => `${w.pod} ${w.level}`),
    [`${a} warning`],
  );
  assert.deepEqual(await warningEvents(f), ['Pod/web-x Warning MemoryHigh', 'VerticalPodAutoscaler/web Warning MemoryHigh']);
  const events = await f.core.listNamespacedEvent({ namespace: 'default' });
  const podEvent = events.items.find((e) => e.reason === 'MemoryHigh' && e.involvedObject.kind === 'Pod')!;
  assert.equal(podEvent.involvedObject.name, a);
  assert.equal(podEvent.message, 'container app: working set 800.0Mi stayed above 75% of its memory limit 1Gi for 2 min (78%)');

  // The same again: told once, still counted in the gauge.
  await f.loop();
  assert.equal((await warningEvents(f)).length, 2);
  assert.equal(await metricValue(f, 'tailor_updater_memory_warning_containers', { level: 'warning' }), 1);

  // b at 900 MiB (88%): critical; now two pods of web at once: the workload is flagged on the VPA.
  usage.sustained.set(b, 900 * MiB);
  const two = await f.loop();
  assert.deepEqual(
    two.memoryWarnings.workloads.map((w) => w.pods),
    [[a, b].sort()],
  );
  assert.deepEqual(await warningEvents(f), [
    'Pod/web-x Warning MemoryCritical',
    'Pod/web-x Warning MemoryHigh',
    'VerticalPodAutoscaler/web Warning MemoryCritical',
    'VerticalPodAutoscaler/web Warning MemoryHigh',
    'VerticalPodAutoscaler/web Warning WorkloadMemoryPressure',
  ]);
  assert.equal(await metricValue(f, 'tailor_updater_memory_warning_containers', { level: 'critical' }), 1);
  assert.equal(await metricValue(f, 'tailor_updater_memory_pressure_workloads'), 1);
  assert.equal(await metricValue(f, 'tailor_updater_memory_warnings_total', { level: 'workload' }), 1);

  // All back under: gauges to 0; c rising later is told afresh (a new pod event).
  for (const p of pods) usage.sustained.set(p, 600 * MiB);
  await f.loop();
  assert.equal(await metricValue(f, 'tailor_updater_memory_warning_containers', { level: 'warning' }), 0);
  assert.equal(await metricValue(f, 'tailor_updater_memory_pressure_workloads'), 0);
  usage.sustained.set(c, 800 * MiB);
  await f.loop();
  assert.equal((await warningEvents(f)).length, 7);
  assert.equal(await metricValue(f, 'tailor_updater_memory_warnings_total', { level: 'warning' }), 2);
  assert.equal(await metricValue(f, 'tailor_updater_memory_warnings_total', { level: 'critical' }), 1);
});
