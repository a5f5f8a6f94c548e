/**
 * The demo's usage history, before the demo starts: each container's usage patterns (its live
 * ones, or the scenario's `history.usage` replacements) evaluated at past times. One definition
 * for both ways the recommender gets it: OpenMetrics files backfilled into Prometheus
 * (backfill-files.ts) and the simulator source used without Prometheus (sim-metrics-source.ts).
 */
import type { ContainerKey } from '../metrics/metrics-source.ts';
import type { UsagePattern } from 'kube-sim/usage/usage-pattern';
import { parseUsagePattern } from 'kube-sim/usage/usage-pattern';
import { usageAt } from 'kube-sim/usage/usage-at';
import { containerUsages } from 'kube-sim/usage/usage-annotation';
import { USAGE_ANNOTATION } from 'kube-sim/usage/usage-annotation';
import type { Pod } from 'kube-sim/objects';
import type { HistorySpec } from './demo-scenario.ts';

/** The history of one container: its patterns from `start` (ms) until `end`. */
export interface ContainerHistory {
  key: ContainerKey;
  cpu: UsagePattern;
  memory: UsagePattern;
  start: number;
  end: number;
  seed: number;
}

/** Usage at one instant: CPU in cores, memory in bytes. */
export interface UsagePoint {
  cpuCores: number;
  memoryBytes: number;
}

/**
 * The usage of `c` at `t`. The container is taken to have started at the history's start, so a
 * leak grows from there. Worked number: `steady(1900m)` is 1.9 cores at every t.
 */
export function usageOfHistory(c: ContainerHistory, t: number): UsagePoint {
  const moment = { now: t, simStart: c.start, containerStart: c.start, seed: c.seed, container: c.key.container };
  const id = `${c.key.namespace}/${c.key.pod}/${c.key.container}`;
  return {
    cpuCores: usageAt(c.cpu, { ...moment, key: `${id}/cpu`, resource: 'cpu' }) / 1000,
    memoryBytes: usageAt(c.memory, { ...moment, key: `${id}/memory`, resource: 'memory' }),
  };
}

/** Sample times of a history: every `intervalMs` from the first multiple after `start` to `end`. */
export function sampleTimes(start: number, end: number, intervalMs: number): number[] {
  const times: number[] = [];
  for (let t = Math.ceil(start / intervalMs) * intervalMs; t <= end; t += intervalMs) times.push(t);
  return times;
}

/**
 * The histories of the app containers of `pods` (the pods running when the demo starts) over the
 * `spec.days` before `end`: each container's own patterns from the pod's usage annotation, unless
 * `spec.usage[workload][container]` replaces them. `workloadOf` names a pod's workload.
 */
export function containerHistories(
  pods: readonly Pod[],
  spec: HistorySpec,
  end: number,
  seed: number,
  workloadOf: (pod: Pod) => string | undefined,
): ContainerHistory[] {
  const start = end - spec.days * 86_400_000;
  const out: ContainerHistory[] = [];
  for (const pod of pods) {
    const live = containerUsages(pod.spec.containers, pod.metadata.annotations?.[USAGE_ANNOTATION]);
    const workload = workloadOf(pod);
    for (const c of pod.spec.containers) {
      const own = live[c.name];
      if (!own) continue;
      const replace = workload === undefined ? undefined : spec.usage[workload]?.[c.name];
      out.push({
        key: { namespace: pod.metadata.namespace ?? 'default', pod: pod.metadata.name ?? '', container: c.name },
        cpu: replace?.cpu ? parseUsagePattern(replace.cpu, 'cpu') : own.cpu,
        memory: replace?.memory ? parseUsagePattern(replace.memory, 'memory') : own.memory,
        start,
        end,
        seed,
      });
    }
  }
  return out;
}
