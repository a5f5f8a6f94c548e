/**
 * `/metrics/cadvisor`: the container series a kubelet's embedded cAdvisor exposes, with its labels
 * (`container`, `id`, `image`, `name`, `namespace`, `pod`), from the simulated meters.
 * Counters only grow: a restarted container keeps its series (labels without the restart count)
 * and its counts, where real cAdvisor would start a new series from zero under a new id.
 */
import type { Pod } from '../objects.ts';
import type { ContainerMeter } from '../usage/container-meter.ts';
import { readLimits } from '../pod-resources.ts';
import { computeQosClass } from '../qos.ts';
import type { MetricFamily, Sample } from './prometheus-text.ts';

/** The meter of a pod's container, if it runs. */
export type MeterLookup = (podUid: string, container: string) => ContainerMeter | undefined;

export function cadvisorFamilies(pods: readonly Pod[], meterOf: MeterLookup): MetricFamily[] {
  const fam = (name: string, help: string, type: 'counter' | 'gauge'): MetricFamily => ({ name, help, type, samples: [] });
  const cpu = fam('container_cpu_usage_seconds_total', 'Cumulative cpu time consumed in seconds.', 'counter');
  const ws = fam('container_memory_working_set_bytes', 'Current working set in bytes.', 'gauge');
  const usage = fam('container_memory_usage_bytes', 'Current memory usage in bytes, including all memory regardless of when it was accessed', 'gauge');
  const oom = fam('container_oom_events_total', 'Count of out of memory events observed for the container', 'counter');
  const periods = fam('container_cpu_cfs_periods_total', 'Number of elapsed enforcement period intervals.', 'counter');
  const throttled = fam('container_cpu_cfs_throttled_periods_total', 'Number of throttled period intervals.', 'counter');
  const memLimit = fam('container_spec_memory_limit_bytes', 'Memory limit for the container.', 'gauge');
  const quota = fam('container_spec_cpu_quota', 'CPU quota of the container.', 'gauge');
  const period = fam('container_spec_cpu_period', 'CPU period of the container.', 'gauge');
  for (const pod of pods) {
    const uid = pod.metadata.uid ?? '';
    const qos = computeQosClass(pod).toLowerCase();
    for (const status of pod.status?.containerStatuses ?? []) {
      const meter = meterOf(uid, status.name);
      if (!meter) continue;
      // One series per container for the pod's lifetime: the runtime id without its restart count.
      const runtimeId = (status.containerID ?? '').replace(/^[a-z]+:\/\//, '').replace(/-\d+$/, '');
      const labels = {
        container: status.name,
        id: `/kubepods${qos === 'guaranteed' ? '' : `/${qos}`}/pod${uid}/${runtimeId}`,
        image: status.image ?? '',
        name: runtimeId,
        namespace: pod.metadata.namespace ?? '',
        pod: pod.metadata.name ?? '',
      };
      const add = (f: MetricFamily, value: number) => f.samples.push({ labels, value } satisfies Sample);
      add(cpu, meter.cpuSecondsTotal);
      add(ws, meter.workingSetBytes);
      add(usage, meter.workingSetBytes);
      add(oom, meter.oomEventsTotal);
      const limits = readLimits((status.resources ?? pod.spec.containers.find((c) => c.name === status.name)?.resources)?.limits);
      add(memLimit, limits.memory ?? 0);
      if (limits.cpu !== undefined) {
        add(periods, Math.floor(meter.cfsPeriodsTotal));
        add(throttled, Math.floor(meter.cfsThrottledPeriodsTotal));
        add(quota, limits.cpu * 100);
        add(period, 100000);
      }
    }
  }
  return [cpu, ws, usage, oom, periods, throttled, memLimit, quota, period];
}
