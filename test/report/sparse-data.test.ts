/**
 * `tailor recommend` on data scraped every 5 minutes (a downsampled store, a slow scrape job), on a
 * real Prometheus: CPU is read with a rate window of 4 scrape intervals read from the data, so
 * every container gets CPU samples (a window equal to the 1-minute step held at most one sample and
 * every row came out insufficient-data). A workload with 2 hours of history gets a recommendation
 * with low confidence and no memory upper bound yet instead of a crash.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { silentLogger } from '../../src/observability/logger.ts';
import { queryConfig } from '../../src/metrics/metric-names.ts';
import { PrometheusQueryClient } from '../../src/metrics/query-client.ts';
import { PrometheusMetricsSource } from '../../src/metrics/prometheus-source.ts';
import { tailorStrategy } from '../../src/model/tailor/tailor-strategy.ts';
import { runRecommend } from '../../src/report/recommend-run.ts';
import { UsageFeed } from '../../src/metrics/usage-feed.ts';
import type { ContainerSeries } from '../../src/metrics/metrics-source.ts';
import type { RowJson } from '../../src/report/report-json.ts';
import type { FixtureSeries } from '../support/fixture-series.ts';
import { startPrometheus, type RunningServer } from '../support/prometheus-server.ts';

const MINUTE = 60_000;
const EVERY = 5 * MINUTE;
const END = Date.UTC(2026, 2, 3);
const MiB = 2 ** 20;

/** One container scraped every 5 minutes from `start` to END: steady `cores`, memory `bytes`, owner and requests. */
function container(namespace: string, deployment: string, start: number, cores: number, bytes: number): FixtureSeries[] {
  const pod = `${deployment}-5d4-abcde`;
  const id = { namespace, pod, container: 'app' };
  const times: number[] = [];
  for (let t = start; t <= END; t += EVERY) times.push(t);
  const ksm = { ...id, job: 'kube-state-metrics' };
  return [
    { metric: 'container_cpu_usage_seconds_total', labels: { ...id, job: 'kubelet' }, samples: times.map((t) => [t, ((t - start) / 1000) * cores]) },
    { metric: 'container_memory_working_set_bytes', labels: { ...id, job: 'kubelet' }, samples: times.map((t) => [t, bytes]) },
    {
      metric: 'kube_pod_owner',
      labels: { namespace, pod, owner_kind: 'ReplicaSet', owner_name: `${deployment}-5d4`, owner_is_controller: 'true', job: 'kube-state-metrics' },
      samples: times.map((t) => [t, 1]),
    },
    {
      metric: 'kube_replicaset_owner',
      labels: {
        namespace,
        replicaset: `${deployment}-5d4`,
        owner_kind: 'Deployment',
        owner_name: deployment,
        owner_is_controller: 'true',
        job: 'kube-state-metrics',
      },
      samples: times.map((t) => [t, 1]),
    },
    { metric: 'kube_pod_container_resource_requests', labels: { ...ksm, resource: 'cpu', unit: 'core' }, samples: times.map((t) => [t, 1]) },
    { metric: 'kube_pod_container_resource_requests', labels: { ...ksm, resource: 'memory', unit: 'byte' }, samples: times.map((t) => [t, 1024 * MiB]) },
  ];
}

describe('recommend on 5-minute data (real Prometheus)', () => {
  let server: RunningServer | undefined;
  before(async () => {
    server = await startPrometheus({
      series: [...container('shop', 'web', END - 2 * 24 * 3600_000, 0.4, 300 * MiB), ...container('fresh', 'api', END - 2 * 3600_000, 0.2, 200 * MiB)],
    });
  });
  after(async () => {
    await server?.stop();
  });

  test('the CPU rate window is 4 scrape intervals read from the data, and every container gets CPU samples', async () => {
    const source = new PrometheusMetricsSource(new PrometheusQueryClient({ url: server!.url }, silentLogger()), queryConfig(), silentLogger());
    const { rows, sync, warnings } = await runRecommend({ source, strategy: tailorStrategy(), now: END, feed: { lagMs: 0 }, logger: silentLogger() });
    assert.equal(sync.scrapeIntervalMs, EVERY);
    assert.equal(sync.rateWindowMs, 4 * EVERY);
    assert.deepEqual(warnings, []);
    const web = rows.find((r) => r.workload.name === 'web')!;
    assert.equal(web.status, 'ok');
    assert.ok(web.cpuSamples > 2 * 24 * 60 * 0.9, `${web.cpuSamples} CPU samples over 2 days at a 1-minute step`);
    assert.ok(web.cpu.target! >= 400 && web.cpu.target! <= 440, `steady 0.4 cores -> ${web.cpu.target}m`);
    assert.equal(web.confidence, 'normal');
    assert.equal(web.cpu.savings, 1000 - web.cpu.target!);
  });

  test("the recommender's feed (tailor run, backfills) reads CPU from the same data, a cycle after the bootstrap too", async () => {
    const source = new PrometheusMetricsSource(new PrometheusQueryClient({ url: server!.url }, silentLogger()), queryConfig(), silentLogger());
    const cpu = new Map<string, number>();
    const sink = { cpu: (s: ContainerSeries) => cpu.set(s.key.namespace, (cpu.get(s.key.namespace) ?? 0) + s.times.length), memory() {}, oom() {} };
    // As the recommender component builds it: --history 8d, --history-step 1m, the default lag.
    const feed = new UsageFeed(source, { historyMs: 8 * 24 * 3600_000, stepMs: MINUTE, maxPointsPerQuery: 250_000 }, silentLogger());
    const first = await feed.sync(END - 10 * MINUTE, sink);
    assert.equal(first.rateWindowMs, 4 * EVERY);
    assert.ok((cpu.get('shop') ?? 0) > 2 * 24 * 60 * 0.9, `shop: ${cpu.get('shop')} CPU samples`);
    assert.ok((cpu.get('fresh') ?? 0) > 100, `fresh: ${cpu.get('fresh')} CPU samples`);
    cpu.clear();
    const next = await feed.sync(END, sink);
    assert.equal(next.cpuSamples, 2 * 10, 'ten new 1-minute steps for each of the two containers');
  });

  test('tailor recommend (default strategy) prints the young workload with low confidence and no memory upper bound, in every format', () => {
    const args = ['bin/tailor.mjs', 'recommend', '--prometheus-url', server!.url, '--at', String(END), '--no-progress'];
    const json = spawnSync(process.execPath, [...args, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(json.status, 0, json.stderr);
    const rows = JSON.parse(json.stdout) as RowJson[];
    const api = rows.find((r) => r.workload.name === 'api')!;
    assert.equal(api.status, 'ok');
    assert.equal(api.confidence, 'low');
    assert.equal(api.memory.upperBound, null);
    assert.equal(api.cpu.savings, null);
    assert.ok(api.notes.includes('no memory upper bound yet'), api.notes.join('; '));
    for (const format of ['table', 'csv', 'yaml', 'html']) {
      const result = spawnSync(process.execPath, [...args, '--format', format], { encoding: 'utf8' });
      assert.equal(result.status, 0, `${format}: ${result.stderr}`);
    }
    const table = spawnSync(process.execPath, [...args, '--format', 'table'], { encoding: 'utf8' }).stdout;
    assert.match(table, /none yet/);
    assert.match(table, /1 row\(s\) with low confidence or no estimate left out/);
  });

  test('a scrape interval given too short says the data is too sparse, on stderr and in the rows', () => {
    const result = spawnSync(
      process.execPath,
      ['bin/tailor.mjs', 'recommend', '--prometheus-url', server!.url, '--at', String(END), '--no-progress', '--format', 'json', '--scrape-interval', '15s'],
      { encoding: 'utf8' },
    );
    assert.equal(result.status, 0, result.stderr);
    assert.match(
      result.stderr,
      /tailor: warning: 2 container\(s\) have no CPU samples: the CPU data is too sparse for a 1m rate window \(scrape interval 15s\); pass --scrape-interval with the real interval/,
    );
    const rows = JSON.parse(result.stdout) as RowJson[];
    for (const r of rows) assert.ok(r.notes.includes('no CPU samples with a 1m rate window'), r.notes.join('; '));
  });
});
