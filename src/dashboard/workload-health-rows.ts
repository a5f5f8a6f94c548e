/**
 * The rows on the namespace's containers' memory health: the working set against the memory limit
 * with the warning and critical lines of Tailor's alerts, the memory warnings, then OOM kills and
 * container restarts.
 */
import { MEMORY_WARNING_THRESHOLDS as WARN } from '../policy/memory-warning-thresholds.ts';
import { NS, RI } from './dashboard-promql.ts';
import type { Layout } from './panel-layout.ts';

/** The early memory warnings row and the workload health row (OOM kills, restarts). */
export function workloadHealthRows(l: Layout): void {
  l.row('Early memory warnings');
  l.panel(
    'timeseries',
    'Working set against the memory limit in $namespace',
    `Each container's working set as a share of its memory limit (containers without a limit are left out), with the warning (${WARN.warningRatio * 100}%) and critical (${WARN.criticalRatio * 100}%) lines of Tailor's alerts and Events.`,
    12,
    8,
    'percentunit',
    [
      {
        expr: `max by (pod, container) (container_memory_working_set_bytes{namespace="${NS}", container!="", container!="POD"}) / max by (pod, container) (kube_pod_container_resource_limits{namespace="${NS}", resource="memory"} > 0)`,
        legend: '{{pod}}/{{container}}',
      },
      { expr: `vector(${WARN.warningRatio})`, legend: 'warning' },
      { expr: `vector(${WARN.criticalRatio})`, legend: 'critical' },
    ],
  );
  l.panel(
    'timeseries',
    'Memory warnings',
    `Containers whose working set stays above ${WARN.warningRatio * 100}% (warning) or ${WARN.criticalRatio * 100}% (critical) of their memory limit, workloads with ${WARN.workloadPods} or more such pods at once (updater, last loop), and the warnings told as Events per rate interval.`,
    12,
    8,
    'short',
    [
      { expr: 'max by (level) (tailor_updater_memory_warning_containers)', legend: 'containers {{level}}' },
      { expr: 'max(tailor_updater_memory_pressure_workloads)', legend: 'workloads under pressure' },
      { expr: `sum by (level) (increase(tailor_updater_memory_warnings_total[${RI}]))`, legend: 'told {{level}}' },
    ],
  );
  l.row('Workload health in $namespace');
  l.panel(
    'timeseries',
    'OOM kills',
    'Out-of-memory kills per container (cAdvisor), and the containers whose last termination was OOMKilled at some time in the interval (kube-state-metrics).',
    12,
    8,
    'short',
    [
      { expr: `sum by (pod, container) (increase(container_oom_events_total{namespace="${NS}"}[${RI}]))`, legend: 'OOM kills {{pod}}/{{container}}' },
      {
        expr: `max by (pod, container) (max_over_time(kube_pod_container_status_last_terminated_reason{namespace="${NS}", reason="OOMKilled"}[${RI}]))`,
        legend: 'last terminated OOMKilled {{pod}}/{{container}}',
      },
    ],
  );
  l.panel(
    'timeseries',
    'Container restarts',
    'Container restarts (OOM kills, restarts of a resize with resizePolicy RestartContainer, crashes).',
    12,
    8,
    'short',
    [{ expr: `sum by (pod, container) (increase(kube_pod_container_status_restarts_total{namespace="${NS}"}[${RI}]))`, legend: '{{pod}}/{{container}}' }],
  );
}
