/**
 * Tailor's Prometheus adapter through Thanos (`npm run test:thanos`; not part of `npm test`, which
 * has no Thanos). The README names Thanos as a backend; this proves it:
 * - the adapter's whole integration suite (test/support/source-suite.ts, the one a single
 *   Prometheus and VictoriaMetrics pass) against Thanos Query over two Prometheus replicas holding
 *   the same series, deduplicated by the `replica` label: every answer as from one Prometheus;
 * - one replica gone: the answer is still complete, and Thanos' partial-response warning reaches
 *   the adapter's quality report (and its log);
 * - two clusters in one Thanos, told apart by their `cluster` label: `--prometheus-selector`
 *   (the adapter's extra selector) reads one and not the other.
 * Thanos is test infrastructure, built once from the Go module proxy (test/thanos/build-thanos.sh).
 * When it is not cached this prints `thanos check: SKIPPED: <why>` and exits 0 (CI never builds it).
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { silentLogger } from '../../src/observability/logger.ts';
import { queryConfig } from '../../src/metrics/metric-names.ts';
import { PrometheusQueryClient } from '../../src/metrics/query-client.ts';
import { PrometheusMetricsSource } from '../../src/metrics/prometheus-source.ts';
import { END, MiB, sampleClusterSeries } from '../support/sample-cluster.ts';
import { MINUTE } from '../support/usage-fixture.ts';
import { sourceSuite } from '../support/source-suite.ts';
import type { FixtureSeries } from '../support/fixture-series.ts';
import { startThanos, type ThanosStack } from './thanos-stack.ts';
import { cachedTool } from '../support/cached-tool.ts';

const BUILD_THANOS = fileURLToPath(new URL('./build-thanos.sh', import.meta.url));

/** The same series as another cluster's: `cluster="test"` becomes `cluster` = `name`. */
function asCluster(series: readonly FixtureSeries[], name: string): FixtureSeries[] {
  return series.filter((s) => s.labels['cluster'] === 'test').map((s) => ({ ...s, labels: { ...s.labels, cluster: name } }));
}

const source = (url: string, cluster: string, warnings?: string[]) => {
  const log = silentLogger();
  if (warnings) log.warn = ((fields: { warnings?: string[] }) => warnings.push(...(fields.warnings ?? []))) as typeof log.warn;
  return new PrometheusMetricsSource(
    new PrometheusQueryClient({ url, retries: 0 }, silentLogger()),
    queryConfig({ extraSelector: `cluster="${cluster}"` }),
    log,
  );
};

const found = cachedTool(BUILD_THANOS);
if ('skip' in found) {
  console.log(`thanos check: SKIPPED: ${found.skip}`);
} else {
  const thanos = found.path;
  const replicas = (series: FixtureSeries[]) => [
    { series, externalLabels: { replica: 'a' } },
    { series, externalLabels: { replica: 'b' } },
  ];

  sourceSuite('Thanos Query over two Prometheus replicas (deduplicated by replica)', { exactRate: true, storesNaN: false }, (series) =>
    startThanos(thanos, replicas(series)),
  );

  describe('Thanos: a replica down, and two clusters in one Thanos', () => {
    let stack: ThanosStack;
    before(async () => {
      const series = sampleClusterSeries();
      stack = await startThanos(thanos, [...replicas(series), { series: asCluster(series, 'east'), externalLabels: { replica: 'a' } }]);
    });
    after(() => stack?.stop());
    const range = { start: END - 60 * MINUTE, end: END, step: MINUTE };

    test('two clusters: the extra selector reads one cluster and not the other', async () => {
      assert.deepEqual(Object.fromEntries(await source(stack.url, 'test').namespaceSizes(END, 10 * MINUTE)), { batch: 1, shop: 3 });
      assert.deepEqual(Object.fromEntries(await source(stack.url, 'east').namespaceSizes(END, 10 * MINUTE)), { batch: 1, shop: 3 });
      const test = await source(stack.url, 'test').memoryPeaks(['shop'], range);
      const east = await source(stack.url, 'east').memoryPeaks(['shop'], range);
      assert.equal(test.data.length, 3, 'three shop containers in cluster test, each once (the replicas deduplicated)');
      assert.deepEqual(
        east.data.map((s) => s.values.at(-1)),
        test.data.map((s) => s.values.at(-1)),
        'the same usage: the copy',
      );
      assert.ok(test.data.every((s) => s.values.every((v) => Number.isNaN(v) || v < 2048 * MiB)));
    });

    test('one replica down: the answer is still complete, and the partial-response warning reaches the adapter', async () => {
      const before = await source(stack.url, 'test').cpuUsage(['shop'], range);
      assert.deepEqual(before.quality.warnings, []);
      await stack.stopStore(1);
      const logged: string[] = [];
      const after = await source(stack.url, 'test', logged).cpuUsage(['shop'], range);
      assert.deepEqual(
        after.data.map((s) => s.values),
        before.data.map((s) => s.values),
        'the other replica answers for it',
      );
      assert.ok(after.quality.warnings.length > 0, 'Thanos said the answer is partial');
      assert.ok(logged.length > 0, 'and the adapter logged it');
    });
  });
}
