import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MetricFamily } from 'kube-sim/metrics/prometheus-text';
import { historySeries, openMetricsLines } from '../../src/demo/openmetrics-history.ts';
import { containerHistories, sampleTimes, usageOfHistory, type ContainerHistory } from '../../src/demo/usage-history.ts';
import type { Pod } from 'kube-sim/objects';

const MiB = 2 ** 20;
const web: ContainerHistory = {
  key: { namespace: 'default', pod: 'web-1', container: 'app' },
  cpu: { kind: 'steady', value: 500, noise: 0 },
  memory: { kind: 'steady', value: 256 * MiB, noise: 0 },
  start: 0,
  end: 120_000,
  seed: 1,
};
const scrape = { cadvisor: { job: 'cadvisor', instance: '127.0.0.1:6443' }, kubeState: { job: 'kube-state', instance: '127.0.0.1:6443' } };
const family = (name: string, samples: MetricFamily['samples']): MetricFamily => ({ name, help: '', type: 'gauge', samples });
const podLabels = (pod: string) => ({ container: 'app', id: `/kubepods/${pod}`, namespace: 'default', pod });

test('sample times are the interval multiples within [start, end]', () => {
  assert.deepEqual(sampleTimes(0, 120_000, 30_000), [0, 30_000, 60_000, 90_000, 120_000]);
  assert.deepEqual(sampleTimes(10_000, 70_000, 30_000), [30_000, 60_000]);
});

test('a leak in the history grows from the history start: leak(100Mi, 1Mi/s) is 160Mi a minute in', () => {
  const leaky: ContainerHistory = { ...web, memory: { kind: 'leak', start: 100 * MiB, perMs: MiB / 1000, noise: 0 } };
  assert.deepEqual(usageOfHistory(leaky, 60_000), { cpuCores: 0.5, memoryBytes: 160 * MiB });
});

test('the series to backfill: CPU and working set of containers with a history, constant kube-state families, with the scrape labels', () => {
  const cadvisor = [
    family('container_cpu_usage_seconds_total', [
      { labels: podLabels('web-1'), value: 3 },
      { labels: podLabels('other-1'), value: 9 },
    ]),
    family('container_memory_working_set_bytes', [{ labels: podLabels('web-1'), value: 1 }]),
    family('container_memory_usage_bytes', [{ labels: podLabels('web-1'), value: 1 }]),
  ];
  const kubeState = [
    family('kube_pod_container_resource_requests', [
      { labels: { namespace: 'default', pod: 'web-1', container: 'app', resource: 'cpu', unit: 'core' }, value: 0.6 },
    ]),
    family('kube_pod_status_phase', [{ labels: { namespace: 'default', pod: 'web-1', phase: 'Running' }, value: 1 }]),
  ];
  const series = historySeries(cadvisor, kubeState, [web], scrape);
  assert.deepEqual(
    series.map((s) => `${s.metric} ${s.labels['pod']} ${s.labels['job']} ${s.labels['instance']}`),
    [
      'container_cpu_usage_seconds_total web-1 cadvisor 127.0.0.1:6443',
      'container_memory_working_set_bytes web-1 cadvisor 127.0.0.1:6443',
      'kube_pod_container_resource_requests web-1 kube-state 127.0.0.1:6443',
    ],
  );
  assert.deepEqual(historySeries(cadvisor, kubeState, [], scrape), [], 'no history, nothing to backfill');
});

test('OpenMetrics lines: 0.5 cores every 30 s is a counter growing by 15, memory as it is, constants every 5 minutes, # EOF last', () => {
  const long = { ...web, end: 600_000 };
  const series = historySeries(
    [
      family('container_cpu_usage_seconds_total', [{ labels: podLabels('web-1'), value: 0 }]),
      family('container_memory_working_set_bytes', [{ labels: podLabels('web-1'), value: 0 }]),
    ],
    [family('kube_pod_container_resource_requests', [{ labels: { namespace: 'default', pod: 'web-1', container: 'app', resource: 'cpu' }, value: 0.6 }])],
    [long],
    scrape,
  );
  const lines = [...openMetricsLines(series, 30_000)];
  const cpu = lines.filter((l) => l.startsWith('container_cpu_usage_seconds_total'));
  assert.equal(cpu.length, 21, 'every 30 s from 0 to 600 s');
  assert.equal(
    cpu[0],
    'container_cpu_usage_seconds_total{container="app",id="/kubepods/web-1",instance="127.0.0.1:6443",job="cadvisor",namespace="default",pod="web-1"} 15 0',
  );
  assert.deepEqual(
    cpu.slice(1, 3).map((l) => l.split(' ').slice(1).join(' ')),
    ['30 30', '45 60'],
  );
  assert.deepEqual(cpu.at(-1)!.split(' ').slice(1), ['315', '600']);
  const memory = lines.filter((l) => l.startsWith('container_memory_working_set_bytes'));
  assert.ok(memory.every((l) => l.split(' ')[1] === String(256 * MiB)));
  const requests = lines.filter((l) => l.startsWith('kube_pod_container_resource_requests'));
  assert.deepEqual(
    requests.map((l) => l.split(' ').slice(1).join(' ')),
    ['0.6 0', '0.6 300', '0.6 600'],
  );
  assert.equal(lines.at(-1), '# EOF');
  assert.equal(lines.length, 21 + 21 + 3 + 1);
});

test('container histories: each app container over the days before the end, with the scenario replacing patterns per workload', () => {
  const pod = (name: string, app: string, usage: object): Pod =>
    ({
      metadata: { name, namespace: 'default', labels: { app }, annotations: { 'tailor.dev/sim-usage': JSON.stringify({ app: usage }) } },
      spec: { containers: [{ name: 'app', image: 'x', resources: { requests: { cpu: '100m', memory: '256Mi' } } }] },
    }) as unknown as Pod;
  const end = 10 * 86_400_000;
  const histories = containerHistories(
    [pod('web-1', 'web', { cpu: 'steady(300m)' }), pod('leaky-1', 'leaky', { memory: 'leak(180Mi, 3Mi/s)' })],
    { days: 3, intervalMs: 30_000, usage: { leaky: { app: { memory: 'steady(190Mi)' } } } },
    end,
    7,
    (p) => p.metadata.labels?.['app'],
  );
  assert.deepEqual(
    histories.map((h) => [h.key.pod, h.start, h.end, h.seed]),
    [
      ['web-1', 7 * 86_400_000, end, 7],
      ['leaky-1', 7 * 86_400_000, end, 7],
    ],
  );
  assert.deepEqual(
    usageOfHistory(histories[0]!, end),
    { cpuCores: 0.3, memoryBytes: Math.round(256 * MiB * 0.6) },
    'web: its own cpu, the default memory (60% of the request)',
  );
  assert.equal(usageOfHistory(histories[1]!, end).memoryBytes, 190 * MiB, 'leaky: the replacement, not the leak');
});
