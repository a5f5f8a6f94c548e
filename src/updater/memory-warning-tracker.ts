/**
 * Which early memory warnings are new, so each is told once (an Event, a log line) rather than every
 * loop: a container is told when its level rises (none -> warning, none or warning -> critical), a
 * workload when it becomes flagged. A container or workload that drops below is forgotten, so a
 * later rise is told again. Kept in memory: after a restart or a change of leader the warnings that
 * still hold are told once more.
 */
import type { ContainerMemoryWarning, MemoryWarnings, WorkloadMemoryWarning } from './memory-warnings.ts';

/** The warnings to tell this loop. */
export interface NewMemoryWarnings {
  containers: ContainerMemoryWarning[];
  workloads: WorkloadMemoryWarning[];
}

const RANK = { warning: 1, critical: 2 } as const;

export class MemoryWarningTracker {
  private levels = new Map<string, ContainerMemoryWarning['level']>();
  private flagged = new Set<string>();

  /** Takes this loop's warnings; returns the new ones. */
  update(current: MemoryWarnings): NewMemoryWarnings {
    const levels = new Map<string, ContainerMemoryWarning['level']>();
    const containers: ContainerMemoryWarning[] = [];
    for (const w of current.containers) {
      const key = `${w.namespace}/${w.pod}/${w.container}`;
      const before = this.levels.get(key);
      if (before === undefined || RANK[w.level] > RANK[before]) containers.push(w);
      // A drop from critical to warning keeps the higher mark until it falls below both.
      levels.set(key, before !== undefined && RANK[before] > RANK[w.level] ? before : w.level);
    }
    const flagged = new Set<string>();
    const workloads: WorkloadMemoryWarning[] = [];
    for (const w of current.workloads) {
      if (!this.flagged.has(w.workload)) workloads.push(w);
      flagged.add(w.workload);
    }
    this.levels = levels;
    this.flagged = flagged;
    return { containers, workloads };
  }
}
