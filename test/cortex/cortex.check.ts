/**
 * Tailor's Prometheus adapter against Cortex (`npm run test:cortex`; not part of `npm test`, which
 * has no Cortex). The docs name Cortex as a backend read with a tenant header; this proves it:
 * - the adapter's whole integration suite (test/support/source-suite.ts, the one Prometheus,
 *   VictoriaMetrics and Thanos pass) against one Cortex with multi-tenancy on, the fixture
 *   remote-written as tenant `team-a`, and Tailor reading it with `X-Scope-OrgID: team-a` given as
 *   its own configuration (`TAILOR_PROMETHEUS_HEADERS`, i.e. `--prometheus-header`);
 * - tenants: without the header Cortex refuses the query (401) and the adapter says so in one line
 *   (the library, and `tailor recommend` on the command line: no stack trace); with another
 *   tenant's header it sees that tenant's series only, and an unknown tenant sees nothing.
 * Cortex is test infrastructure, built once from the Go module proxy (test/cortex/build-cortex.sh).
 * When it is not cached this prints `cortex check: SKIPPED: <why>` and exits 0 (CI never builds it).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { silentLogger } from '../../src/observability/logger.ts';
import { resolveConfig } from '../../src/config/resolve-config.ts';
import { PROMETHEUS_OPTIONS, PROMETHEUS_RULES, prometheusConnection, prometheusQueryConfig } from '../../src/metrics/prometheus-options.ts';
import { PrometheusQueryClient } from '../../src/metrics/query-client.ts';
import { PrometheusMetricsSource } from '../../src/metrics/prometheus-source.ts';
import { MetricsSourceError } from '../../src/metrics/metrics-errors.ts';
import { END, sampleClusterSeries } from '../support/sample-cluster.ts';
import { MINUTE } from '../support/usage-fixture.ts';
import { sourceSuite } from '../support/source-suite.ts';
import type { FixtureSeries } from '../support/fixture-series.ts';
import { cachedTool } from '../support/cached-tool.ts';
import type { RowJson } from '../../src/report/report-json.ts';
import { startCortex, type CortexStack } from './cortex-stack.ts';

const BUILD_CORTEX = fileURLToPath(new URL('./build-cortex.sh', import.meta.url));

/**
 * The adapter as `tailor run` makes it from its environment (the ConfigMap's variables):
 * `TAILOR_PROMETHEUS_HEADERS` is the list of `--prometheus-header` values.
 */
function sourceFromEnv(url: string, headers?: string) {
  const env: Record<string, string> = { TAILOR_PROMETHEUS_URL: url, TAILOR_PROMETHEUS_RETRIES: '0', TAILOR_PROMETHEUS_SELECTOR: 'cluster="test"' };
  if (headers !== undefined) env['TAILOR_PROMETHEUS_HEADERS'] = headers;
  const { config } = resolveConfig(PROMETHEUS_OPTIONS, {}, env, PROMETHEUS_RULES);
  const connection = prometheusConnection(config);
  return {
    connection,
    source: new PrometheusMetricsSource(new PrometheusQueryClient(connection, silentLogger()), prometheusQueryConfig(config), silentLogger()),
  };
}

/** `tailor recommend` against Cortex, as a user runs it. */
function recommend(url: string, ...extra: string[]) {
  const args = ['bin/tailor.mjs', 'recommend', '--prometheus-url', url, '--selector', 'cluster="test"', '--at', String(END), '--retries', '0', ...extra];
  const env = { ...process.env };
  delete env['KUBECONFIG'];
  return spawnSync(process.execPath, args, { encoding: 'utf8', env });
}

/** Tenant `team-b`'s own series: only the batch namespace, under other pod names. */
function teamB(series: readonly FixtureSeries[]): FixtureSeries[] {
  return series
    .filter((s) => s.labels['namespace'] === 'batch' && s.labels['cluster'] === 'test')
    .map((s) => ({ ...s, labels: { ...s.labels, ...(s.labels['pod'] ? { pod: `b-${s.labels['pod']}` } : {}) } }));
}

const found = cachedTool(BUILD_CORTEX);
if ('skip' in found) {
  console.log(`cortex check: SKIPPED: ${found.skip}`);
} else {
  const cortex = found.path;

  sourceSuite(
    'Cortex v1.21.1, single process, tenant team-a (X-Scope-OrgID through TAILOR_PROMETHEUS_HEADERS)',
    { exactRate: true, storesNaN: true },
    async (series) => {
      const stack = await startCortex(cortex);
      try {
        await stack.push('team-a', series);
      } catch (err) {
        await stack.stop();
        throw err;
      }
      return { url: stack.prometheusUrl, stop: () => stack.stop(), connection: sourceFromEnv(stack.prometheusUrl, 'X-Scope-OrgID: team-a').connection };
    },
  );

  describe('Cortex: tenants are apart, and a missing tenant is said plainly', () => {
    let stack: CortexStack;
    before(async () => {
      stack = await startCortex(cortex);
      const series = sampleClusterSeries();
      await stack.push('team-a', series);
      await stack.push('team-b', teamB(series));
    });
    after(() => stack?.stop());
    const range = { start: END - 60 * MINUTE, end: END, step: MINUTE };

    test('each tenant sees its own series, an unknown tenant nothing', async () => {
      const a = sourceFromEnv(stack.prometheusUrl, 'X-Scope-OrgID: team-a').source;
      const b = sourceFromEnv(stack.prometheusUrl, 'X-Scope-OrgID: team-b').source;
      const c = sourceFromEnv(stack.prometheusUrl, 'X-Scope-OrgID: team-c').source;
      assert.deepEqual(Object.fromEntries(await a.namespaceSizes(END, 10 * MINUTE)), { batch: 1, shop: 3 });
      assert.deepEqual(Object.fromEntries(await b.namespaceSizes(END, 10 * MINUTE)), { batch: 1 });
      assert.deepEqual(Object.fromEntries(await c.namespaceSizes(END, 10 * MINUTE)), {});
      const pods = async (s: PrometheusMetricsSource) => (await s.cpuUsage(['shop', 'batch'], range)).data.map((x) => x.key.pod).sort();
      assert.deepEqual(await pods(a), ['db-0', 'report-123-xyz', 'web-abc-1', 'web-abc-2']);
      assert.deepEqual(await pods(b), ['b-report-123-xyz']);
      assert.deepEqual(await pods(c), []);
    });

    test('without the tenant header Cortex refuses (401), and the adapter says so in one line', async () => {
      const none = sourceFromEnv(stack.prometheusUrl).source;
      const err = await none.namespaceSizes(END, 10 * MINUTE).then(
        () => assert.fail('answered without a tenant'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof MetricsSourceError, String(err));
      assert.match(err.message, /401/);
      assert.match(err.message, /no org id/i, 'Cortex’s own reason is passed on');
      assert.match(err.message, /refused the request.*tenant header/, 'and what to check');
      assert.doesNotMatch(err.message, /\n\s+at /, 'a message, not a stack');
    });

    test('tailor recommend: the tenant given with --header, or a one-line error without it', () => {
      const refused = recommend(stack.prometheusUrl);
      assert.equal(refused.status, 1, refused.stderr);
      assert.match(refused.stderr, /^tailor recommend: .*refused the request: HTTP 401 .*no org id.*tenant header/im);
      assert.doesNotMatch(refused.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);

      const answered = recommend(stack.prometheusUrl, '--header', 'X-Scope-OrgID: team-a', '--format', 'json');
      assert.equal(answered.status, 0, answered.stderr);
      const rows = JSON.parse(answered.stdout) as RowJson[];
      assert.deepEqual(
        rows.map((r) => [r.namespace, r.workload.name, r.container]).sort(),
        [
          ['batch', 'report', 'worker'],
          ['shop', 'db', 'postgres'],
          ['shop', 'web', 'app'],
        ],
        'team-a’s workloads, each once',
      );
      assert.equal(rows.find((r) => r.workload.name === 'web')!.memory.request, '512Mi', 'requests from kube-state-metrics, through Cortex');
    });
  });
}
