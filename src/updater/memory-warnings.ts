/**
 * Tailor's own early memory warnings (the thresholds the alerting rules use,
 * src/policy/memory-warning-thresholds.ts), pure: from each pod's recent usage and its actual memory
 * limit, which containers stay above 75% (`warning`) or 85% (`critical`) of the limit, and which
 * workloads have at least 2 pods at a warning level at once. "Stay above" is read as the pressure
 * guard reads it: the lowest working set over the pressure window (default 2 min) is above the share.
 * Example: limit 1Gi, lowest working set 900Mi over the window -> 87.9%, `critical`.
 * They only tell (Events, metrics, logs, `tailor plan`); the pressure guard at 90% acts.
 */
import { QuantityError } from 'kube-basics/quantity';
import { readResourceValues } from '../policy/container-values.ts';
import { MEMORY_WARNING_THRESHOLDS, memoryWarningLevel, type MemoryWarningLevel, type MemoryWarningThresholds } from '../policy/memory-warning-thresholds.ts';
import { actualResources } from './actual-resources.ts';
import type { WorkloadGroup } from './updater-plan.ts';

/** One container above a warning share. */
export interface ContainerMemoryWarning {
  namespace: string;
  pod: string;
  container: string;
  /** e.g. `Deployment/shop/web`. */
  workload: string;
  /** The VPA's name (its namespace is the pod's). */
  vpa: string;
  level: MemoryWarningLevel;
  workingSetBytes: number;
  limitBytes: number;
  /** workingSetBytes / limitBytes. */
  ratio: number;
}

/** A workload with several pods at a warning level at once. */
export interface WorkloadMemoryWarning {
  namespace: string;
  workload: string;
  vpa: string;
  /** The pods at a warning level, sorted. */
  pods: string[];
}

/** What one loop's usage shows. */
export interface MemoryWarnings {
  containers: ContainerMemoryWarning[];
  workloads: WorkloadMemoryWarning[];
}

function limitOf(requirements: Parameters<typeof readResourceValues>[0]): number | undefined {
  try {
    return readResourceValues(requirements).limits.memory;
  } catch (err) {
    if (err instanceof QuantityError) return undefined;
    throw err;
  }
}

/** The warnings of the groups' pods (groups without usage give none). */
export function memoryWarnings(groups: readonly WorkloadGroup[], t: MemoryWarningThresholds = MEMORY_WARNING_THRESHOLDS): MemoryWarnings {
  const containers: ContainerMemoryWarning[] = [];
  const workloads: WorkloadMemoryWarning[] = [];
  for (const group of groups) {
    if (!group.usage) continue;
    const podsAtWarning = new Set<string>();
    for (const pod of group.pods) {
      if (pod.metadata?.deletionTimestamp || pod.status?.phase !== 'Running') continue;
      const podName = pod.metadata?.name ?? '';
      const namespace = pod.metadata?.namespace ?? 'default';
      const usage = group.usage[podName];
      if (!usage) continue;
      for (const c of actualResources(pod)) {
        const workingSet = usage[c.name]?.memoryWorkingSetMinBytes;
        const limit = limitOf(c.actual);
        const level = memoryWarningLevel(workingSet, limit, t);
        if (!level || workingSet === undefined || limit === undefined) continue;
        containers.push({
          namespace,
          pod: podName,
          container: c.name,
          workload: group.workload,
          vpa: group.vpa.metadata.name,
          level,
          workingSetBytes: workingSet,
          limitBytes: limit,
          ratio: workingSet / limit,
        });
        podsAtWarning.add(podName);
      }
    }
    if (podsAtWarning.size >= t.workloadPods) {
      workloads.push({
        namespace: group.vpa.metadata.namespace ?? 'default',
        workload: group.workload,
        vpa: group.vpa.metadata.name,
        pods: [...podsAtWarning].sort(),
      });
    }
  }
  return { containers, workloads };
}
