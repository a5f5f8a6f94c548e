/**
 * The dashboard's first row: the selected workload's CPU and memory usage (busiest pod) against its
 * requests, limits and the recommendation's target and bounds, per container.
 */
import { NS, RI, WL } from './dashboard-promql.ts';
import type { Layout, Override, Query } from './panel-layout.ts';
import { workloadPods } from './workload-pods.ts';

/** The usage, requests, limits and bounds of the selected workload's containers, for one resource. */
function resourceQueries(resource: 'cpu' | 'memory'): Query[] {
  const pods = workloadPods(NS, WL);
  const usage =
    resource === 'cpu'
      ? `sum by (namespace, pod, container) (rate(container_cpu_usage_seconds_total{namespace="${NS}", container=~"$container"}[${RI}]))`
      : `max by (namespace, pod, container) (container_memory_working_set_bytes{namespace="${NS}", container=~"$container"})`;
  const spec = (metric: string) =>
    `max by (container) (${metric}{namespace="${NS}", container=~"$container", resource="${resource}"} * on (namespace, pod) group_left() ${pods})`;
  const bound = (b: string) =>
    `max by (container) (tailor_vpa_recommendation{namespace="${NS}", target_name="${WL}", container=~"$container", resource="${resource}", bound="${b}"})`;
  return [
    { expr: `max by (container) (${usage} * on (namespace, pod) group_left() ${pods})`, legend: 'usage {{container}} (busiest pod)' },
    { expr: spec('kube_pod_container_resource_requests'), legend: 'request {{container}}' },
    { expr: spec('kube_pod_container_resource_limits'), legend: 'limit {{container}}' },
    { expr: bound('target'), legend: 'target {{container}}' },
    { expr: bound('lowerBound'), legend: 'lower bound {{container}}' },
    { expr: bound('upperBound'), legend: 'upper bound {{container}}' },
  ];
}

/** Dashed lines for the bounds, a thicker target, dotted limits: what Grafana draws over the usage. */
function boundStyles(): Override[] {
  return [
    { regex: '^(lower|upper) bound .*', properties: [{ id: 'custom.lineStyle', value: { fill: 'dash', dash: [10, 10] } }] },
    { regex: '^target .*', properties: [{ id: 'custom.lineWidth', value: 2 }] },
    { regex: '^limit .*', properties: [{ id: 'custom.lineStyle', value: { fill: 'dot', dash: [2, 6] } }] },
  ];
}

/** Usage against requests, limits and the recommendation, for CPU and for memory. */
export function usageRow(l: Layout): void {
  l.row('Workload $workload in $namespace: usage, requests, limits and recommendation');
  l.panel(
    'timeseries',
    'CPU: usage, requests, limits and recommendation',
    "CPU cores of the busiest pod of the workload per container, against its requests and limits and the VPA's target, lower and upper bound.",
    12,
    9,
    'cores',
    resourceQueries('cpu'),
    boundStyles(),
  );
  l.panel(
    'timeseries',
    'Memory: working set, requests, limits and recommendation',
    "Working set bytes of the busiest pod of the workload per container, against its requests and limits and the VPA's target, lower and upper bound.",
    12,
    9,
    'bytes',
    resourceQueries('memory'),
    boundStyles(),
  );
}
