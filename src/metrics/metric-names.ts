/**
 * The metric and label names Tailor queries, with the defaults of cAdvisor (usage) and
 * kube-state-metrics (requests, limits, owners, OOM reasons). Every name can be overridden for
 * clusters that relabel, e.g. older cAdvisor versions that label `pod_name` / `container_name`.
 */

/** Metric names. */
export interface MetricNames {
  /** cAdvisor CPU counter (seconds of CPU used). */
  cpuUsageSeconds: string;
  /** cAdvisor memory working set gauge (bytes). */
  memoryWorkingSet: string;
  /** cAdvisor OOM counter (newer cAdvisor/kubelet). */
  oomEvents: string;
  /** kube-state-metrics: 1 while the container's last termination had the labelled reason. */
  lastTerminatedReason: string;
  /** kube-state-metrics restart counter. */
  restarts: string;
  podOwner: string;
  replicaSetOwner: string;
  jobOwner: string;
  requests: string;
  limits: string;
  /** kube-state-metrics: one series per init container of a pod, labelled with its `restart_policy` (`Always` for a native sidecar). */
  initContainerInfo: string;
}

/** The labels that identify a container; cAdvisor and kube-state-metrics share them by default. */
export interface LabelNames {
  namespace: string;
  pod: string;
  container: string;
}

export const DEFAULT_METRIC_NAMES: Readonly<MetricNames> = Object.freeze({
  cpuUsageSeconds: 'container_cpu_usage_seconds_total',
  memoryWorkingSet: 'container_memory_working_set_bytes',
  oomEvents: 'container_oom_events_total',
  lastTerminatedReason: 'kube_pod_container_status_last_terminated_reason',
  restarts: 'kube_pod_container_status_restarts_total',
  podOwner: 'kube_pod_owner',
  replicaSetOwner: 'kube_replicaset_owner',
  jobOwner: 'kube_job_owner',
  requests: 'kube_pod_container_resource_requests',
  limits: 'kube_pod_container_resource_limits',
  initContainerInfo: 'kube_pod_init_container_info',
});

export const DEFAULT_LABEL_NAMES: Readonly<LabelNames> = Object.freeze({
  namespace: 'namespace',
  pod: 'pod',
  container: 'container',
});

/** Everything the PromQL builders need besides the namespaces and the time range. */
export interface QueryConfig {
  metrics: MetricNames;
  labels: LabelNames;
  /** Matchers added to every selector, e.g. `cluster="prod"` for a shared Thanos; '' for none. */
  extraSelector: string;
}

/** A query config with the defaults, overridden field by field. */
export function queryConfig(overrides: { metrics?: Partial<MetricNames>; labels?: Partial<LabelNames>; extraSelector?: string } = {}): QueryConfig {
  return {
    metrics: { ...DEFAULT_METRIC_NAMES, ...overrides.metrics },
    labels: { ...DEFAULT_LABEL_NAMES, ...overrides.labels },
    extraSelector: (overrides.extraSelector ?? '').trim(),
  };
}
