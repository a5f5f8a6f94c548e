/**
 * The estimated savings row: requests minus the recommended target in resources (namespace total
 * and by workload), and the monthly money of the requests and of the recommendations at the
 * dashboard's prices.
 */
import { NS } from './dashboard-promql.ts';
import type { Layout, Query } from './panel-layout.ts';
import { workloadPods } from './workload-pods.ts';

/**
 * Requests minus the recommended target, summed over every pod of every VPA-managed container in
 * the namespace, by workload. Worked number: 3 pods requesting 500m with a target of 120m save
 * 3 x (0.5 - 0.12) = 1.14 cores. Negative: the workload needs more than it requests.
 */
function savings(resource: 'cpu' | 'memory'): string {
  const requests = `sum by (namespace, pod, container) (kube_pod_container_resource_requests{namespace="${NS}", resource="${resource}"})`;
  const target = `max by (namespace, workload, container) (label_replace(tailor_vpa_recommendation{namespace="${NS}", resource="${resource}", bound="target"}, "workload", "$1", "target_name", "(.+)"))`;
  return `sum by (workload) (${requests} * on (namespace, pod) group_left(workload) ${workloadPods(NS)} - on (namespace, workload, container) group_left() ${target})`;
}

/** Hours in an average month (8,760 / 12), as src/report/money.ts. */
const HOURS_PER_MONTH = 730;

/** The requests of every pod of every VPA-managed container with a target in the namespace, by workload (the containers `savings` counts). */
function recommendedRequests(resource: 'cpu' | 'memory'): string {
  const requests = `sum by (namespace, pod, container) (kube_pod_container_resource_requests{namespace="${NS}", resource="${resource}"})`;
  const target = `max by (namespace, workload, container) (label_replace(tailor_vpa_recommendation{namespace="${NS}", resource="${resource}", bound="target"}, "workload", "$1", "target_name", "(.+)"))`;
  return `sum by (workload) (${requests} * on (namespace, pod) group_left(workload) ${workloadPods(NS)} and on (namespace, workload, container) ${target})`;
}

/**
 * A month of CPU cores `cpu` and memory bytes `memory` (namespace totals) at the dashboard's
 * prices: (cores x $cpu_hour_price + GiB x $memory_gib_hour_price) x 730 h. Worked number at 0.03
 * and 0.004: 1.14 cores and 0.75 GiB cost (1.14 x 0.03 + 0.75 x 0.004) x 730 = 27.16 a month.
 */
function monthly(cpu: string, memory: string): string {
  return `(sum(${cpu}) * $cpu_hour_price + sum(${memory}) / ${2 ** 30} * $memory_gib_hour_price) * ${HOURS_PER_MONTH}`;
}

/** The monthly money of the requests, of the recommendations (the requests minus the savings) and of the difference, for the namespace. */
function moneyQueries(): Query[] {
  const requests = monthly(recommendedRequests('cpu'), recommendedRequests('memory'));
  return [
    { expr: requests, legend: 'requests' },
    { expr: `${requests} - ${monthly(savings('cpu'), savings('memory'))}`, legend: 'recommendations' },
    { expr: monthly(savings('cpu'), savings('memory')), legend: 'saving (negative: a cost)' },
  ];
}

/** Savings in cores and bytes, by workload, and the monthly cost of requests against recommendations. */
export function savingsRow(l: Layout): void {
  l.row('Estimated savings in $namespace (requests minus target, every pod)');
  l.panel(
    'stat',
    'CPU savings',
    'Requested CPU minus the recommended target, summed over every pod of every container with a VPA in the namespace (negative: more is needed).',
    4,
    8,
    'cores',
    [{ expr: `sum(${savings('cpu')})`, legend: 'cores' }],
  );
  l.panel('stat', 'Memory savings', 'Requested memory minus the recommended target, summed like CPU.', 4, 8, 'bytes', [
    { expr: `sum(${savings('memory')})`, legend: 'bytes' },
  ]);
  l.panel('timeseries', 'CPU savings by workload', 'Requested minus target CPU cores per workload.', 8, 8, 'cores', [
    { expr: savings('cpu'), legend: '{{workload}}' },
  ]);
  l.panel('timeseries', 'Memory savings by workload', 'Requested minus target memory bytes per workload.', 8, 8, 'bytes', [
    { expr: savings('memory'), legend: '{{workload}}' },
  ]);
  l.panel(
    'timeseries',
    'Monthly cost of requests vs recommendations ($currency)',
    `What the requests of every pod of every container with a VPA in the namespace cost a month (${HOURS_PER_MONTH} h) at the Price per CPU-hour and Price per GiB-hour variables, what the recommended targets would cost, and the saving (negative: the recommendations cost more). Requests only: not limits, node packing or discounts (docs/cost.md). 0 until the prices are set.`,
    24,
    8,
    'money',
    moneyQueries(),
  );
}
