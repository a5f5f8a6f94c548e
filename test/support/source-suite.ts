/**
 * The integration suite of the Prometheus adapter, run against any PromQL backend started by
 * `start` (a real Prometheus, a real VictoriaMetrics) holding {@link sampleClusterSeries}.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/observability/logger.ts';
import { queryConfig } from '../../src/metrics/metric-names.ts';
import { PrometheusQueryClient } from '../../src/metrics/query-client.ts';
import { PrometheusMetricsSource } from '../../src/metrics/prometheus-source.ts';
import { OwnerIndex } from '../../src/metrics/owner-resolution.ts';
import { containerId, type ContainerSeries } from '../../src/metrics/metrics-source.ts';
import { UsageFeed, type UsageSink } from '../../src/metrics/usage-feed.ts';
import { CONTAINERS, DB_OOM_AT, DB_RESET_AT, END, MiB, REPORT_NAN_AT, REPORT_OOM_AT, SPIKE_AT, START, sampleClusterSeries } from './sample-cluster.ts';
import { MINUTE } from './usage-fixture.ts';
import type { RunningServer } from './prometheus-server.ts';
import type { ConnectionOptions } from '../../src/metrics/connection-options.ts';

const HOUR = 3600_000;

/** Where backends legitimately differ from Prometheus. */
export interface BackendTraits {
  /** rate() over a one-scrape window equals the counter delta / interval at every point (Prometheus). */
  exactRate: boolean;
  /** NaN samples are stored and come back as NaN (Prometheus); VictoriaMetrics drops them on import, Thanos Query's deduplication on reading. */
  storesNaN: boolean;
}

/** Mean and the 90th percentile (nearest rank) of some values. */
function summary(values: readonly number[]): { mean: number; p90: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { mean: values.reduce((a, b) => a + b, 0) / values.length, p90: sorted[Math.ceil(0.9 * sorted.length) - 1]! };
}

/** A started backend; `connection`, when given, is how to read it (its URL, a tenant header, ...). */
export type SuiteServer = RunningServer & { connection?: ConnectionOptions };

export function sourceSuite(backend: string, traits: BackendTraits, start: (series: ReturnType<typeof sampleClusterSeries>) => Promise<SuiteServer>): void {
  describe(`Prometheus adapter against ${backend}`, () => {
    let server: SuiteServer | undefined;
    let client: PrometheusQueryClient;
    let source: PrometheusMetricsSource;

    before(async () => {
      server = await start(sampleClusterSeries());
      client = new PrometheusQueryClient({ ...(server.connection ?? { url: server.url }), retries: 0 }, silentLogger());
      source = new PrometheusMetricsSource(client, queryConfig({ extraSelector: 'cluster="test"' }), silentLogger());
    });
    after(async () => {
      await server?.stop();
    });

    const byId = (series: ContainerSeries[]) => new Map(series.map((s) => [containerId(s.key), s]));

    test('namespace sizes count real containers only (no POD, no other cluster, duplicates once)', async () => {
      // A day back goes through the series API (index), ten minutes through a count query.
      assert.deepEqual(Object.fromEntries(await source.namespaceSizes(END, 24 * HOUR)), { batch: 1, shop: 3 });
      assert.deepEqual(Object.fromEntries(await source.namespaceSizes(END, 10 * MINUTE)), { batch: 1, shop: 3 });
      assert.deepEqual(Object.fromEntries(await source.namespaceSizes(END, 10 * MINUTE, ['batch'])), { batch: 1 });
    });

    test('CPU usage is the rate of the counter, per minute, across a counter reset and duplicate jobs', async () => {
      const from = DB_RESET_AT - 30 * MINUTE;
      const range = { start: from, end: from + 60 * MINUTE, step: MINUTE };
      const answer = await source.cpuUsage(['shop'], range);
      const got = byId(answer.data);
      assert.deepEqual([...got.keys()], ['shop/db-0/postgres', 'shop/web-abc-1/app', 'shop/web-abc-2/app']);
      for (const c of CONTAINERS.filter((x) => x.namespace === 'shop')) {
        const s = got.get(`shop/${c.pod}/${c.container}`)!;
        assert.equal(s.times.length, 61, `${c.pod}: one point per minute`);
        if (!traits.exactRate) {
          // VictoriaMetrics' rate() (no extrapolation, previous-sample based) averages some points
          // over two scrape intervals; on this saw-tooth (x5.5 within 10 minutes) that moves p90 by
          // one 5% step. What must hold: the CPU time is conserved (mean) and p90 stays close.
          const got = summary(s.values);
          const want = summary(s.times.map((t) => c.cpuCores(t)));
          assert.ok(Math.abs(got.mean - want.mean) / want.mean < 0.02, `${c.pod} mean ${got.mean} vs ${want.mean}`);
          assert.ok(Math.abs(got.p90 - want.p90) / want.p90 <= 0.1, `${c.pod} p90 ${got.p90} vs ${want.p90}`);
          continue;
        }
        for (let i = 0; i < s.times.length; i++) {
          const want = c.cpuCores(s.times[i]!);
          assert.ok(Math.abs(s.values[i]! - want) < 1e-6 * want + 1e-9, `${c.pod} at ${new Date(s.times[i]!).toISOString()}: ${s.values[i]} != ${want}`);
        }
      }
      assert.equal(answer.quality.nonFinite, 0);
    });

    test('8 days at one minute (11,520 points) are read in chunks under the 11,000-points limit', async () => {
      const answer = await source.cpuUsage(['shop'], { start: START + MINUTE, end: END, step: MINUTE });
      const s = byId(answer.data).get('shop/web-abc-2/app')!;
      assert.equal(s.times.length, 11_520);
      assert.equal(s.times[0], START + MINUTE);
      assert.equal(s.times.at(-1), END);
      assert.ok(s.times.every((t, i) => i === 0 || t - s.times[i - 1]! === MINUTE));
    });

    test('NaN counter samples are dropped and counted, not passed on', async () => {
      const range = { start: REPORT_NAN_AT[0]! - 5 * MINUTE, end: REPORT_NAN_AT[1]! + 5 * MINUTE, step: MINUTE };
      const answer = await source.cpuUsage(['batch'], range);
      const s = answer.data[0]!;
      assert.ok(s.values.every(Number.isFinite));
      if (traits.storesNaN) {
        assert.ok(answer.quality.nonFinite >= 2, `nonFinite ${answer.quality.nonFinite}`);
        assert.ok(!s.times.includes(REPORT_NAN_AT[0]!));
      }
    });

    test('memory peaks keep a spike scraped between two evaluation points', async () => {
      const stepEnd = SPIKE_AT - 15_000 + MINUTE; // the step window that holds the spike
      const answer = await source.memoryPeaks(['shop'], { start: stepEnd - 5 * MINUTE, end: stepEnd + 5 * MINUTE, step: MINUTE });
      const s = byId(answer.data).get('shop/web-abc-1/app')!;
      const at = s.times.indexOf(stepEnd);
      assert.equal(s.values[at], 900 * MiB);
      assert.equal(s.values[at + 1], CONTAINERS[0]!.memoryBytes(stepEnd + MINUTE - 15_000));
      assert.equal(s.values.filter((v) => v === 900 * MiB).length, 1);
    });

    test('recent memory for the updater: the peak over 1h and the lowest value over 2 min, in one query', async () => {
      // Memory is sampled every 30 s at :15 and :45. At 00:31:00 the 2 min window holds 00:29:15 ..
      // 00:30:45, among them web-abc-1's 900 MiB spike at 00:30:15: the peak, never the lowest value.
      const at = SPIKE_AT + 45_000;
      const windows = { peakWindowMs: HOUR, pressureWindowMs: 2 * MINUTE, coverageMs: MINUTE };
      const before = client.stats.queries;
      const usage = await source.memoryUsage(['shop', 'batch'], at, windows);
      assert.equal(client.stats.queries - before, 1, 'one query for both namespaces');
      const sampled = (from: number, to: number) => {
        const out: number[] = [];
        for (let t = START + 15_000; t <= to; t += 30_000) if (t >= from) out.push(t);
        return out;
      };
      const expected = CONTAINERS.map((c) => ({
        id: `${c.namespace}/${c.pod}/${c.container}`,
        peakBytes: Math.max(...sampled(at - HOUR, at).map((t) => c.memoryBytes(t))),
        sustainedBytes: Math.min(...sampled(at - 2 * MINUTE, at).map((t) => c.memoryBytes(t))),
      })).sort((a, b) => a.id.localeCompare(b.id));
      assert.deepEqual(
        usage.map((u) => ({ id: containerId(u.key), peakBytes: u.peakBytes, sustainedBytes: u.sustainedBytes })),
        expected,
      );
      assert.equal(expected.find((e) => e.id === 'shop/web-abc-1/app')!.peakBytes, 900 * MiB);

      // 90 s after the first sample, nothing precedes the 2 min window: no sustained value.
      const young = await source.memoryUsage(['shop'], START + 90_000, windows);
      assert.ok(young.length > 0 && young.every((u) => u.peakBytes !== undefined && u.sustainedBytes === undefined), JSON.stringify(young));
    });

    test('OOM kills come from kube-state-metrics and from cAdvisor, one event at the kill', async () => {
      const answer = await source.oomKills(['shop', 'batch'], { start: START + MINUTE, end: END, step: MINUTE });
      const events = answer.data.map((e) => [containerId(e.key), e.at, e.count]);
      assert.deepEqual(events.sort(), [
        ['batch/report-123-xyz/worker', REPORT_OOM_AT, 1],
        ['shop/db-0/postgres', DB_OOM_AT, 1],
      ]);
    });

    test('owners resolve pods to Deployment, StatefulSet and CronJob', async () => {
      const index = new OwnerIndex(await source.owners(['shop', 'batch'], END, 8 * 24 * HOUR));
      assert.deepEqual(index.workloadOf('shop', 'web-abc-2'), { kind: 'Deployment', name: 'web' });
      assert.deepEqual(index.workloadOf('shop', 'db-0'), { kind: 'StatefulSet', name: 'db' });
      assert.deepEqual(index.workloadOf('batch', 'report-123-xyz'), { kind: 'CronJob', name: 'report' });
    });

    test('current requests and limits come from kube-state-metrics', async () => {
      const res = await source.resources(['shop', 'batch'], END, HOUR);
      const web = res.find((r) => r.key.pod === 'web-abc-1')!;
      assert.deepEqual(web.requests, { cpu: 0.5, memory: 512 * MiB });
      assert.deepEqual(web.limits, { cpu: 1, memory: 1024 * MiB });
      assert.deepEqual(res.find((r) => r.key.pod === 'db-0')!.limits, {});
      assert.equal(res.length, 4);
    });

    test('the feed bootstraps once, then each cycle fetches only the new steps with a constant number of queries', async () => {
      const seen: Array<[string, number]> = [];
      const sink: UsageSink = {
        cpu: (s) => s.times.forEach((t) => seen.push([containerId(s.key), t])),
        memory: () => {},
        oom: () => {},
      };
      const feed = new UsageFeed(source, { historyMs: 6 * HOUR, stepMs: MINUTE, lagMs: 0 }, silentLogger());
      const firstNow = END - 2 * HOUR;
      const boot = await feed.sync(firstNow, sink);
      assert.equal(boot.cpuSamples, 4 * 360);
      assert.deepEqual(boot.failed, []);
      const before = client.stats.queries;
      seen.length = 0;
      const next = await feed.sync(firstNow + 10 * MINUTE, sink);
      assert.equal(next.cpuSamples, 4 * 10);
      assert.ok(seen.every(([, t]) => t > firstNow && t <= firstNow + 10 * MINUTE));
      assert.equal(client.stats.queries - before, 4, 'sizes + cpu + memory + oom');
      assert.equal(feed.cursor('shop'), firstNow + 10 * MINUTE);
    });
  });
}
