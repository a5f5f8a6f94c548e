/**
 * Without kube-state-metrics (and without --kubeconfig) the report says which series are missing
 * and what to do, instead of silently showing `Pod/<name>` with 0 pods and requests `-/-`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cleanQuality,
  type ContainerResources,
  type ContainerSeries,
  type MetricsSource,
  type OwnerLink,
  type StepRange,
} from '../../src/metrics/metrics-source.ts';
import { silentLogger } from '../../src/observability/logger.ts';
import { vpaStrategy } from '../../src/model/vpa-strategy.ts';
import { runRecommend } from '../../src/report/recommend-run.ts';
import { renderReport } from '../../src/report/report-format.ts';

const NOW = Date.UTC(2026, 2, 3);
const key = { namespace: 'prod', pod: 'api-7c9-x', container: 'app' };

/** cAdvisor usage only: no owner series, no requests or limits (kube-state-metrics not installed). */
function cadvisorOnly(owners: OwnerLink[] = [], resources: ContainerResources[] = []): MetricsSource {
  const series = (range: StepRange, value: number): ContainerSeries => {
    const times: number[] = [];
    for (let t = range.start; t <= range.end; t += range.step) times.push(t);
    return { key, times, values: times.map(() => value) };
  };
  return {
    namespaceSizes: async () => new Map([['prod', 1]]),
    cpuUsage: async (_ns, range) => ({ data: [series(range, 0.2)], quality: cleanQuality() }),
    memoryPeaks: async (_ns, range) => ({ data: [series(range, 2e8)], quality: cleanQuality() }),
    oomKills: async () => ({ data: [], quality: cleanQuality() }),
    owners: async () => owners,
    resources: async () => resources,
  };
}

test('without kube-state-metrics: the missing owner and resource series are named, with what to do', async () => {
  const { rows, warnings } = await runRecommend({
    source: cadvisorOnly(),
    strategy: vpaStrategy(),
    now: NOW,
    feed: { historyMs: 2 * 24 * 3600_000 },
    logger: silentLogger(),
  });
  assert.deepEqual(
    rows.map((r) => `${r.workload.kind}/${r.workload.name}`),
    ['Pod/api-7c9-x'],
  );
  assert.deepEqual(warnings, [
    '1 pod(s) have no kube_pod_owner series (e.g. prod/api-7c9-x): they are shown as Pod/<name>, not as their workload; install kube-state-metrics (or name its series with --metric) or pass --kubeconfig to read them from the cluster',
    'no kube_pod_container_resource_requests or kube_pod_container_resource_limits series: current requests and limits are unknown (-/-), so there is no difference and no savings; install kube-state-metrics (or name its series with --metric) or pass --kubeconfig to read them from the cluster',
  ]);
  assert.match(renderReport(rows, 'table'), /owner unknown: no kube_pod_owner; requests unknown/);
});

test('with the owner and resource series present there is nothing to warn about; renamed series are named as configured', async () => {
  const owners: OwnerLink[] = [{ namespace: 'prod', kind: 'Pod', name: 'api-7c9-x', ownerKind: 'ReplicaSet', ownerName: 'api-7c9' }];
  const resources: ContainerResources[] = [{ key, requests: { cpu: 0.5 }, limits: {} }];
  const ok = await runRecommend({
    source: cadvisorOnly(owners, resources),
    strategy: vpaStrategy(),
    now: NOW,
    feed: { historyMs: 2 * 24 * 3600_000 },
    logger: silentLogger(),
  });
  assert.deepEqual(ok.warnings, []);
  const renamed = await runRecommend({
    source: cadvisorOnly([], resources),
    strategy: vpaStrategy(),
    now: NOW,
    feed: { historyMs: 2 * 24 * 3600_000 },
    logger: silentLogger(),
    metricNames: { podOwner: 'my_pod_owner', requests: 'r', limits: 'l' },
  });
  assert.equal(renamed.warnings.length, 1);
  assert.match(renamed.warnings[0]!, /no my_pod_owner series/);
});
