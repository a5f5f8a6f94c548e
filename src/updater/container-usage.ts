/**
 * Recent memory usage of one container of one pod, as the updater's shell reads it from
 * Prometheus (`container_memory_working_set_bytes`). The planner only compares numbers.
 */

/** Recent usage of a container. Every field is optional: missing data makes the planner cautious. */
export interface ContainerUsage {
  /** Highest working set over the recent window (e.g. `max_over_time(...[1h])`), bytes. */
  memoryPeakBytes?: number;
  /** Lowest working set over the last `memoryWindowMs` (e.g. `min_over_time(...[2m])`), bytes. */
  memoryWorkingSetMinBytes?: number;
  /** The span that minimum covers (ms); the pressure guard needs at least its configured window. */
  memoryWindowMs?: number;
}

/** Usage by container name. */
export type PodUsage = Readonly<Record<string, ContainerUsage | undefined>>;
