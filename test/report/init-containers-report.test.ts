/**
 * `tailor recommend` leaves ordinary init containers out (they run before the workload's containers
 * and nothing resizes them), as the recommender does; native sidecars stay. Learnt from
 * kube-state-metrics' kube_pod_init_container_info on a real Prometheus, or from the pods' specs
 * with a kubeconfig.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/observability/logger.ts';
import { queryConfig } from '../../src/metrics/metric-names.ts';
import { PrometheusQueryClient } from '../../src/metrics/query-client.ts';
import { PrometheusMetricsSource } from '../../src/metrics/prometheus-source.ts';
import { vpaStrategy } from '../../src/model/vpa-strategy.ts';
import { runRecommend } from '../../src/report/recommend-run.ts';
import { podInitContainers } from '../../src/report/cluster-resources.ts';
import type { MetricsSource } from '../../src/metrics/metrics-source.ts';
import { startPrometheus, type RunningServer } from '../support/prometheus-server.ts';
import { MINUTE, usageFixture, type FixtureContainer } from '../support/usage-fixture.ts';
import type { V1Pod } from '@kubernetes/client-node';

const START = Date.UTC(2026, 0, 1);
const END = START + 6 * 60 * MINUTE;
const MiB = 1024 * 1024;
const owner = { kind: 'Deployment', name: 'web', replicaSet: 'web-abc' } as const;
const container = (name: string, extra: Partial<FixtureContainer> = {}): FixtureContainer => ({
  namespace: 'shop',
  pod: 'web-abc-1',
  container: name,
  owner,
  cpuCores: () => 0.2,
  memoryBytes: () => 200 * MiB,
  ...extra,
});
const CONTAINERS = [
  container('app'),
  container('migrate', { initContainer: 'ordinary', cpuCores: () => 1.5, memoryBytes: () => 900 * MiB }),
  container('proxy', { initContainer: 'sidecar', cpuCores: () => 0.05, memoryBytes: () => 40 * MiB }),
];

describe('recommend leaves ordinary init containers out', () => {
  let server: RunningServer | undefined;
  before(async () => {
    server = await startPrometheus({ series: usageFixture(CONTAINERS, { start: START, end: END }) });
  });
  after(async () => {
    await server?.stop();
  });
  const source = () => new PrometheusMetricsSource(new PrometheusQueryClient({ url: server!.url }, silentLogger()), queryConfig(), silentLogger());
  const containers = (rows: Array<{ container: string }>) => rows.map((r) => r.container).sort();

  test('kube-state-metrics names the ordinary init container: no row for it; the native sidecar keeps its row', async () => {
    assert.deepEqual(await source().initContainers(['shop'], END, 6 * 60 * MINUTE), [{ namespace: 'shop', pod: 'web-abc-1', container: 'migrate' }]);
    const { rows } = await runRecommend({
      source: source(),
      strategy: vpaStrategy(),
      now: END,
      feed: { lagMs: 0, historyMs: 6 * 60 * MINUTE },
      logger: silentLogger(),
    });
    assert.deepEqual(containers(rows), ['app', 'proxy']);
  });

  test('with a kubeconfig the pods say it (a source that cannot tell, as without kube-state-metrics)', async () => {
    const p = source();
    const blind: MetricsSource = {
      namespaceSizes: (...a) => p.namespaceSizes(...a),
      cpuUsage: (...a) => p.cpuUsage(...a),
      memoryPeaks: (...a) => p.memoryPeaks(...a),
      oomKills: (...a) => p.oomKills(...a),
      owners: (...a) => p.owners(...a),
      resources: (...a) => p.resources(...a),
    };
    const input = { source: blind, strategy: vpaStrategy(), now: END, feed: { lagMs: 0, historyMs: 6 * 60 * MINUTE }, logger: silentLogger() };
    assert.deepEqual(containers((await runRecommend(input)).rows), ['app', 'migrate', 'proxy'], 'nothing tells the source-only report');
    const web: V1Pod = {
      metadata: { name: 'web-abc-1', namespace: 'shop' },
      spec: { containers: [{ name: 'app' }], initContainers: [{ name: 'migrate' }, { name: 'proxy', restartPolicy: 'Always' }] },
    };
    const readCluster = async () => ({ resources: [], links: [], initContainers: podInitContainers([web]) });
    assert.deepEqual(containers((await runRecommend({ ...input, readCluster })).rows), ['app', 'proxy']);
  });
});
