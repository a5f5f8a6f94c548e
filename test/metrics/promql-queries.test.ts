import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queryConfig } from '../../src/metrics/metric-names.ts';
import {
  containerSeriesSelector,
  cpuUsageQuery,
  memoryPeakQuery,
  memoryUsageQuery,
  namespaceSizesQuery,
  oomKillsQuery,
  ownerSeriesSelectors,
  resourcesQuery,
} from '../../src/metrics/promql-queries.ts';

const cfg = queryConfig({ extraSelector: 'cluster="prod"' });
const all = [
  cpuUsageQuery(cfg, ['a', 'b'], 60_000),
  memoryPeakQuery(cfg, ['a', 'b'], 60_000),
  oomKillsQuery(cfg, ['a', 'b'], 60_000),
  ...ownerSeriesSelectors(cfg, ['a', 'b']),
  containerSeriesSelector(cfg),
  resourcesQuery(cfg, ['a', 'b'], 3600_000),
  namespaceSizesQuery(cfg, 3600_000),
  memoryUsageQuery(cfg, ['a', 'b'], { peakWindowMs: 3600_000, pressureWindowMs: 120_000, coverageMs: 60_000 }),
];

test('the CPU query is a per-step rate merged over scrape jobs, without POD and empty containers', () => {
  assert.equal(
    cpuUsageQuery(cfg, ['b', 'a'], 60_000),
    'max by (namespace, pod, container) (rate(container_cpu_usage_seconds_total{namespace=~"a|b",container!="",container!="POD",cluster="prod"}[60s]))',
  );
});

test('the memory query keeps the peak within each step', () => {
  assert.match(
    memoryPeakQuery(cfg, ['a'], 300_000),
    /max_over_time\(container_memory_working_set_bytes\{namespace="a",container!="",container!="POD",cluster="prod"\}\[300s\]\)/,
  );
});

test('every selector of every query carries the extra selector', () => {
  for (const q of all) {
    const selectors = q.match(/[a-z_]+\{[^}]*\}/g) ?? [];
    assert.ok(selectors.length > 0);
    for (const s of selectors) assert.match(s, /cluster="prod"/, `${s} in ${q}`);
  }
});

test('label names are configurable (older cAdvisor pod_name / container_name)', () => {
  const old = queryConfig({ labels: { pod: 'pod_name', container: 'container_name' } });
  const q = cpuUsageQuery(old, ['a'], 60_000);
  assert.match(q, /max by \(namespace, pod_name, container_name\)/);
  assert.match(q, /container_name!="POD"/);
  assert.doesNotMatch(q, /cluster/);
});

test('queries are per namespace batch, never per pod or container', () => {
  for (const q of all) assert.doesNotMatch(q, /\bpod=/);
});

test("the updater's memory query: peak over 1h, lowest over 2 min where a sample precedes the window", () => {
  const sel = 'container_memory_working_set_bytes{namespace=~"a|b",container!="",container!="POD",cluster="prod"}';
  const by = 'namespace, pod, container';
  assert.equal(
    memoryUsageQuery(cfg, ['a', 'b'], { peakWindowMs: 3600_000, pressureWindowMs: 120_000, coverageMs: 60_000 }),
    `label_replace(max by (${by}) (max_over_time(${sel}[3600s])), "kind", "peak", "", "") or ` +
      `label_replace(max by (${by}) (min_over_time(${sel}[120s])) and on (${by}) max by (${by}) (present_over_time(${sel}[60s] offset 120s)), "kind", "sustained", "", "")`,
  );
});
