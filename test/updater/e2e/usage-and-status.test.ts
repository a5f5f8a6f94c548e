/**
 * The updater's inputs and reports beyond the plan, on kube-sim 1.35 with a double of Prometheus
 * (the real one: usage-on-prometheus.test.ts): recent memory usage lowers a memory limit no further
 * than peak + margin and raises memory before an OOM; Prometheus down lowers no limit (fail safe),
 * counted and reported; the time from recommendation to applied is measured from the objects; an
 * HPA on cpu is reported on the VPA as the HpaConflict condition (beside the recommender's
 * conditions) with one event.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { parseMemory } from 'kube-basics/quantity';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import type { ContainerMemoryUsage, MemoryUsageSource } from '../../../src/metrics/memory-usage-source.ts';
import { PrometheusUnreachableError } from '../../../src/metrics/metrics-errors.ts';
import { createVpa, deployment, podsOf, startUpdaterFixture, summary, type UpdaterFixture } from './updater-fixture.ts';

const MiB = 1024 * 1024;

/** A Prometheus double: usage per pod-name prefix, or down. */
class FakeUsage implements MemoryUsageSource {
  down = false;
  calls = 0;
  constructor(
    private readonly byPrefix: Record<string, { peakBytes?: number; sustainedBytes?: number }>,
    private readonly pods: () => Promise<k8s.V1Pod[]>,
  ) {}
  async memoryUsage(): Promise<ContainerMemoryUsage[]> {
    this.calls++;
    if (this.down) throw new PrometheusUnreachableError('connect ECONNREFUSED 127.0.0.1:9090', 'memory usage');
    const out: ContainerMemoryUsage[] = [];
    for (const p of await this.pods()) {
      const name = p.metadata!.name!;
      const usage = Object.entries(this.byPrefix).find(([prefix]) => name.startsWith(`${prefix}-`))?.[1];
      if (usage) out.push({ key: { namespace: 'default', pod: name, container: 'app' }, ...usage });
    }
    return out;
  }
}

async function metricValue(f: UpdaterFixture, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = await f.registry.getSingleMetric(name)!.get();
  const v = metric.values.find((x) => Object.entries(labels).every(([k, val]) => x.labels[k] === val));
  return v?.value ?? 0;
}

const memoryOf = (p: k8s.V1Pod) => p.spec!.containers[0]!.resources!;

test('updater e2e 1.35: memory limits follow Prometheus peaks, the pressure guard raises memory, Prometheus down lowers nothing', async (t) => {
  const cluster: { f?: UpdaterFixture } = {};
  const usage = new FakeUsage(
    {
      shrink: { peakBytes: 700 * MiB, sustainedBytes: 650 * MiB },
      // 240 MiB for the whole window against a 256 MiB limit: above 90% (230.4 MiB)
      tight: { peakBytes: 245 * MiB, sustainedBytes: 240 * MiB },
    },
    async () => (await cluster.f!.core.listNamespacedPod({ namespace: 'default' })).items,
  );
  const f = await startUpdaterFixture('1.35', [{ cpu: '8', memory: '16Gi' }], {}, { usage });
  cluster.f = f;
  t.after(() => f.close());
  const big = { requests: { cpu: '500m', memory: '512Mi' }, limits: { cpu: '1', memory: '1Gi' } };
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('blind', 1, [{ name: 'app', image: 'nginx:1.27', resources: big }]) });
  await f.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('shrink', 1, [{ name: 'app', image: 'nginx:1.27', resources: big }]) });
  await f.apps.createNamespacedDeployment({
    namespace: 'default',
    body: deployment('tight', 1, [
      { name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '200Mi' }, limits: { memory: '256Mi' } } },
    ]),
  });
  await f.tick(2000);
  const lower = [
    {
      containerName: 'app',
      target: { cpu: '500m', memory: '128Mi' },
      lowerBound: { cpu: '400m', memory: '100Mi' },
      upperBound: { cpu: '600m', memory: '200Mi' },
    },
  ];

  // Prometheus down: the request goes down, the limit stays (no known peak), and it is said so.
  usage.down = true;
  await createVpa(f, 'blind', 'InPlaceOrRecreate', lower);
  const blind = await f.loop();
  assert.equal(blind.usageAvailable, false);
  assert.deepEqual(summary(blind), ['blind ResizeInPlace OutsideBounds']);
  await f.tick(3000);
  const [blindPod] = await podsOf(f, 'blind');
  assert.equal(memoryOf(blindPod!).requests!.memory, '256Mi');
  assert.equal(memoryOf(blindPod!).limits!.memory, '1Gi', 'no memory limit lowered without usage');
  assert.equal(await metricValue(f, 'tailor_updater_usage_reads_total', { outcome: 'failed' }), 1);
  assert.equal(await metricValue(f, 'tailor_updater_usage_available'), 0);

  // Prometheus back: the limit goes down to peak + 15% (700 MiB -> 805 MiB), not to the 512 MiB the policy proposes.
  usage.down = false;
  await createVpa(f, 'shrink', 'InPlaceOrRecreate', lower);
  await createVpa(
    f,
    'tight',
    'InPlaceOrRecreate',
    [
      {
        containerName: 'app',
        target: { cpu: '100m', memory: '200Mi' },
        lowerBound: { cpu: '50m', memory: '150Mi' },
        upperBound: { cpu: '200m', memory: '300Mi' },
      },
    ],
    { maxAllowed: { memory: '1Gi' } },
  );
  const back = await f.loop();
  assert.equal(back.usageAvailable, true);
  const byName = Object.fromEntries(back.decisions.map((d) => [d.podName.split('-')[0], `${d.action} ${d.reason}`]));
  assert.equal(byName.shrink, 'ResizeInPlace OutsideBounds');
  assert.equal(byName.tight, 'ResizeInPlace MemoryPressure');
  await f.tick(3000);
  const [shrunk] = await podsOf(f, 'shrink');
  assert.equal(memoryOf(shrunk!).requests!.memory, '256Mi');
  const limit = parseMemory(memoryOf(shrunk!).limits!.memory!);
  assert.ok(limit >= Math.ceil(700 * MiB * 1.15) && limit < 1024 * MiB, `limit ${limit / MiB} MiB: peak 700 MiB + 15%`);
  // Pressure: request 200Mi x 1.5 = 300Mi, the limit scaled with it (256Mi x 1.5 = 384Mi).
  const [tight] = await podsOf(f, 'tight');
  assert.deepEqual(memoryOf(tight!).requests!.memory, '300Mi');
  assert.deepEqual(memoryOf(tight!).limits!.memory, '384Mi');
  const events = await f.core.listNamespacedEvent({ namespace: 'default' });
  const pressureEvent = events.items.find((e) => e.involvedObject.name === tight!.metadata!.name && e.reason === 'ResizedInPlace');
  assert.match(pressureEvent!.message!, /^MemoryPressure: /);
  assert.equal(await metricValue(f, 'tailor_updater_usage_available'), 1);
  assert.equal(usage.calls, 2, 'one usage read per loop');
});

async function histogram(f: UpdaterFixture, labels: Record<string, string>): Promise<{ count: number; sum: number }> {
  const metric = await f.registry.getSingleMetric('tailor_updater_recommendation_to_applied_seconds')!.get();
  const match = (suffix: string) =>
    (metric.values as { metricName?: string; labels: Record<string, unknown>; value: number }[]).find(
      (v) => v.metricName === `tailor_updater_recommendation_to_applied_seconds_${suffix}` && Object.entries(labels).every(([k, val]) => v.labels[k] === val),
    )?.value ?? 0;
  return { count: match('count'), sum: match('sum') };
}

test('updater e2e 1.35: the time from recommendation to applied is measured from the VPA status write to the completed resize', async (t) => {
  const f = await startUpdaterFixture('1.35', [{ cpu: '4', memory: '8Gi' }]);
  t.after(() => f.close());
  await f.apps.createNamespacedDeployment({
    namespace: 'default',
    body: deployment('web', 1, [
      { name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } } },
    ]),
  });
  await f.tick(2000);
  await createVpa(f, 'web', 'InPlaceOrRecreate', [
    { containerName: 'app', target: { cpu: '800m', memory: '256Mi' }, lowerBound: { cpu: '700m', memory: '200Mi' } },
  ]);
  const written = f.sim.cluster.clock.now();
  await f.tick(10_000); // the updater's next loop comes 10 s after the recommendation
  assert.deepEqual(summary(await f.loop()), ['web ResizeInPlace OutsideBounds']);
  assert.equal(f.current().resizesInFlight, 1);
  // the kubelet takes the resize up and actuates it (2 s of simulated time); the pod update that
  // shows it done arrives through the watch
  for (let i = 0; i < 10 && f.current().resizesInFlight > 0; i++) {
    await f.tick(1000);
    const deadline = Date.now() + 1000;
    while (f.current().resizesInFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }
  const h = await histogram(f, { path: 'in-place', since: 'recommendation' });
  assert.equal(h.count, 1, 'one resize measured');
  // from the status write (second resolution in managedFields) to the pod update seen: 10 s + 2-3 s
  const expected = (f.sim.cluster.clock.now() - Math.floor(written / 1000) * 1000) / 1000;
  t.diagnostic(`recommendation to applied: ${h.sum} s`);
  assert.ok(h.sum >= 12 && h.sum <= expected && expected <= 16, `${h.sum} s, at most ${expected} s`);
  // measured once: later loops and pod updates do not count it again
  await f.tick(1000);
  await f.loop();
  assert.equal((await histogram(f, { path: 'in-place', since: 'recommendation' })).count, 1);
});

test("updater e2e 1.35: an HPA on cpu is reported on the VPA as the HpaConflict condition, beside the recommender's, with one event", async (t) => {
  const f = await startUpdaterFixture('1.35', [{ cpu: '4', memory: '8Gi' }]);
  t.after(() => f.close());
  const autoscaling = f.kc.makeApiClient(k8s.AutoscalingV2Api);
  await f.apps.createNamespacedDeployment({
    namespace: 'default',
    body: deployment('web', 1, [
      { name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } } },
    ]),
  });
  await autoscaling.createNamespacedHorizontalPodAutoscaler({
    namespace: 'default',
    body: {
      metadata: { name: 'web-hpa' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 5,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
      },
    },
  });
  await f.tick(2000);
  const provided = {
    type: 'RecommendationProvided',
    status: 'True',
    reason: 'RecommendationProvided',
    message: 'recommendation for 1 container(s)',
    lastTransitionTime: '2026-01-01T00:00:01Z',
  };
  await createVpa(
    f,
    'web',
    'InPlaceOrRecreate',
    [{ containerName: 'app', target: { cpu: '800m', memory: '400Mi' }, lowerBound: { cpu: '700m', memory: '300Mi' } }],
    { conditions: [provided] },
  );
  const readVpa = async () =>
    (await f.custom.getNamespacedCustomObject({
      group: 'autoscaling.k8s.io',
      version: 'v1',
      namespace: 'default',
      plural: 'verticalpodautoscalers',
      name: 'web',
    })) as VerticalPodAutoscaler;

  const first = await f.loop();
  assert.deepEqual(
    first.decisions.map((d) => [d.action, d.reason, d.hpaExcluded]),
    [['ResizeInPlace', 'OutsideBounds', ['cpu']]],
  );
  assert.equal(first.hpaConditionsWritten, 1);
  let vpa = await readVpa();
  assert.deepEqual(
    vpa.status!.conditions!.map((c) => c.type),
    ['RecommendationProvided', 'HpaConflict'],
    "the recommender's condition is kept",
  );
  const conflict = vpa.status!.conditions!.find((c) => c.type === 'HpaConflict')!;
  assert.equal(conflict.status, 'True');
  assert.equal(conflict.reason, 'ResourcesLeftToHpa');
  assert.equal(conflict.message, 'HorizontalPodAutoscaler web-hpa scales Deployment/default/web on cpu utilisation; the updater leaves cpu to it');
  const managers = (vpa.metadata as { managedFields?: { manager: string; subresource?: string }[] })
    .managedFields!.filter((m) => m.subresource === 'status')
    .map((m) => m.manager)
    .sort();
  assert.deepEqual(managers, ['tailor-recommender', 'tailor-updater']);

  await f.tick(1000);
  assert.equal((await f.loop()).hpaConditionsWritten, 0, 'a steady conflict costs no write');
  assert.equal(f.calls.filter((c) => c === 'event VerticalPodAutoscaler/HpaConflict').length, 1, 'one event');
  const excluded = async (resource: string) =>
    (await f.registry.getSingleMetric('tailor_updater_hpa_excluded_resources')!.get()).values.find((v) => v.labels['resource'] === resource)?.value;
  assert.deepEqual([await excluded('cpu'), await excluded('memory')], [1, 0], 'the metric counts the VPA leaving cpu to its HPA');

  await autoscaling.deleteNamespacedHorizontalPodAutoscaler({ namespace: 'default', name: 'web-hpa' });
  await f.tick(1000);
  assert.equal((await f.loop()).hpaConditionsWritten, 1);
  vpa = await readVpa();
  assert.deepEqual(
    vpa.status!.conditions!.map((c) => c.type),
    ['RecommendationProvided'],
    'removed when the HPA is gone',
  );
  assert.equal(await excluded('cpu'), 0);
});
