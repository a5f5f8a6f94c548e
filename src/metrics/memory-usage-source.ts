/**
 * The port the updater reads recent memory usage through: per container, the peak working set
 * over a recent window (the floor below which a memory limit is never lowered) and the lowest
 * working set over the pressure window (the memory pressure guard). Batched over namespaces, one
 * instant query per batch and loop, never one per pod. The Prometheus adapter
 * (prometheus-source.ts) implements it beside {@link MetricsSource}.
 */
import type { ContainerKey } from './metrics-source.ts';

/** The windows the answer covers (ms). */
export interface MemoryUsageWindows {
  /** The peak is the highest working set over this window (e.g. 1h). */
  peakWindowMs: number;
  /** The sustained value is the lowest working set over this window (e.g. 2 min). */
  pressureWindowMs: number;
  /** A container counts as covering the pressure window only with a sample this long before it (e.g. 1 min). */
  coverageMs: number;
}

/** Recent memory of one container, bytes. Missing fields: no data. */
export interface ContainerMemoryUsage {
  key: ContainerKey;
  peakBytes?: number;
  /** The lowest working set over the whole pressure window (absent when the window is not covered). */
  sustainedBytes?: number;
}

/** Reads recent memory usage of the containers of `namespaces` as of `at` (ms). Throws MetricsSourceError. */
export interface MemoryUsageSource {
  memoryUsage(namespaces: readonly string[], at: number, windows: MemoryUsageWindows): Promise<ContainerMemoryUsage[]>;
}

/** Namespaces per query at most (the `namespace=~"a|b|..."` matcher stays short). */
export const MEMORY_USAGE_NAMESPACES_PER_QUERY = 200;
