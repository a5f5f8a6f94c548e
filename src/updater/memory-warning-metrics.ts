/**
 * The early memory warnings' metrics (memory-warnings.ts), part of the updater's:
 * - `tailor_updater_memory_warning_containers{level}`: containers at `warning` (above 75% of their
 *   memory limit) and `critical` (above 85%) in the last loop with usage;
 * - `tailor_updater_memory_pressure_workloads`: workloads with 2 or more pods at a warning level at once;
 * - `tailor_updater_memory_warnings_total{level}`: warnings told (an Event each unless dry-run), level
 *   `warning`, `critical` or `workload`; they start at 0 so `increase()` sees the first.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { MemoryWarnings } from './memory-warnings.ts';
import type { NewMemoryWarnings } from './memory-warning-tracker.ts';

export const MEMORY_WARNING_LEVELS = ['warning', 'critical'] as const;

export class MemoryWarningMetrics {
  readonly containers: Gauge<'level'>;
  readonly workloads: Gauge;
  readonly told: Counter<'level'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.containers = new Gauge({
      name: 'tailor_updater_memory_warning_containers',
      help: 'Containers whose working set stays above 75% (warning) or 85% (critical) of their memory limit, last loop.',
      labelNames: ['level'],
      registers,
    });
    this.workloads = new Gauge({
      name: 'tailor_updater_memory_pressure_workloads',
      help: 'Workloads with 2 or more pods above 75% of their memory limit at once, last loop.',
      registers,
    });
    this.told = new Counter({
      name: 'tailor_updater_memory_warnings_total',
      help: 'Early memory warnings told (Event and log), by level (warning, critical, workload).',
      labelNames: ['level'],
      registers,
    });
    for (const level of [...MEMORY_WARNING_LEVELS, 'workload']) this.told.inc({ level }, 0);
    for (const level of MEMORY_WARNING_LEVELS) this.containers.set({ level }, 0);
    this.workloads.set(0);
  }

  /** Sets the gauges from this loop's warnings and counts the new ones. */
  record(all: MemoryWarnings, fresh: NewMemoryWarnings): void {
    for (const level of MEMORY_WARNING_LEVELS) this.containers.set({ level }, all.containers.filter((w) => w.level === level).length);
    this.workloads.set(all.workloads.length);
    for (const w of fresh.containers) this.told.inc({ level: w.level });
    if (fresh.workloads.length > 0) this.told.inc({ level: 'workload' }, fresh.workloads.length);
  }
}
