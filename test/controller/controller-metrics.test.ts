import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ControllerMetrics, createRegistry } from '../../src/controller/controller-metrics.ts';

async function value(m: ControllerMetrics, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const metric = await m.registry.getSingleMetric(name)!.get();
  const found = metric.values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x));
  return found?.value;
}

test('recommendations: cores and bytes per bound; replacing drops the VPAs that are gone', async () => {
  const m = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
  const web = { namespace: 'shop', vpa: 'web', targetKind: 'Deployment', targetName: 'web', container: 'app' };
  m.replaceRecommendations([
    { ...web, bounds: { target: { cpu: 250, memory: 300 * 2 ** 20 }, lowerBound: { cpu: 100 }, upperBound: { cpu: 1500, memory: 2 ** 30 } } },
    { namespace: 'shop', vpa: 'db', targetKind: 'StatefulSet', targetName: 'db', container: 'pg', bounds: { target: { cpu: 2000 } } },
  ]);
  assert.equal(await value(m, 'tailor_vpa_recommendation', { vpa: 'web', resource: 'cpu', bound: 'target', unit: 'core' }), 0.25);
  assert.equal(await value(m, 'tailor_vpa_recommendation', { vpa: 'web', resource: 'memory', bound: 'target', unit: 'byte' }), 314_572_800);
  assert.equal(await value(m, 'tailor_vpa_recommendation', { vpa: 'web', resource: 'cpu', bound: 'upperBound' }), 1.5);
  assert.equal(await value(m, 'tailor_vpa_recommendation', { vpa: 'db', target_kind: 'StatefulSet', bound: 'target' }), 2);
  m.replaceRecommendations([{ ...web, bounds: { target: { cpu: 300 } } }]);
  assert.equal(await value(m, 'tailor_vpa_recommendation', { vpa: 'db' }), undefined, 'db is gone');
  assert.equal(await value(m, 'tailor_vpa_recommendation', { vpa: 'web', bound: 'target', resource: 'cpu' }), 0.3);
  assert.equal(await value(m, 'tailor_vpa_recommendation', { vpa: 'web', bound: 'target', resource: 'memory' }), undefined);
});

test('requests, tracked objects, leader, and Prometheus traffic share the registry', async () => {
  const m = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
  m.replaceRequests([{ namespace: 'shop', pod: 'web-1', container: 'app', cpu: 500, memory: 2 ** 28 }]);
  assert.equal(await value(m, 'tailor_container_requests', { pod: 'web-1', resource: 'cpu' }), 0.5);
  assert.equal(await value(m, 'tailor_container_requests', { pod: 'web-1', resource: 'memory' }), 268_435_456);
  m.trackedVpas.set({ component: 'recommender' }, 12);
  m.leader.set({ lease: 'kube-system/tailor-recommender' }, 1);
  m.prometheus.observer()({ kind: 'range', durationMs: 1500, bytes: 2048 });
  const text = await m.registry.metrics();
  assert.match(text, /tailor_tracked_vpas\{component="recommender"\} 12/);
  assert.match(text, /tailor_leader\{lease="kube-system\/tailor-recommender"\} 1/);
  assert.match(text, /tailor_prometheus_queries_total\{kind="range",outcome="ok"\} 1/);
  assert.match(text, /tailor_prometheus_query_duration_seconds_bucket\{le="2.5",kind="range"\} 1/);
});

test('the loop observer counts cycles, failures and skipped ticks; phases are timed even when they throw', async () => {
  let now = 10_000;
  const m = new ControllerMetrics(createRegistry({ defaultMetrics: false }), () => now);
  const o = m.loopObserver();
  o.cycleEnded!('recommender', { ok: true, startedAt: 60_000, durationMs: 2_500 });
  o.cycleEnded!('recommender', { ok: false, startedAt: 120_000, durationMs: 500, error: new Error('x') });
  o.tickSkipped!('recommender', 0);
  assert.equal(await value(m, 'tailor_loop_cycles_total', { outcome: 'ok' }), 1);
  assert.equal(await value(m, 'tailor_loop_cycles_total', { outcome: 'error' }), 1);
  assert.equal(await value(m, 'tailor_loop_cycle_failures_total', { loop: 'recommender' }), 1);
  assert.equal(await value(m, 'tailor_loop_skipped_ticks_total', { loop: 'recommender' }), 1);
  assert.equal(await value(m, 'tailor_loop_last_success_timestamp_seconds', { loop: 'recommender' }), 62.5);

  await assert.rejects(
    m.timePhase('recommender', 'fetch-usage', async () => {
      now += 750;
      throw new Error('prometheus down');
    }),
  );
  const h = await m.registry.getSingleMetric('tailor_loop_phase_duration_seconds')!.get();
  const sum = h.values.find(
    (v) => (v as { metricName?: string }).metricName === 'tailor_loop_phase_duration_seconds_sum' && v.labels['phase'] === 'fetch-usage',
  );
  assert.equal(sum?.value, 0.75);
});

test('the default registry carries the process metrics', async () => {
  const text = await createRegistry().metrics();
  assert.match(text, /process_cpu_seconds_total/);
  assert.match(text, /nodejs_heap_size_used_bytes/);
});
