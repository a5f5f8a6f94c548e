/**
 * Recent memory usage for the planner, read once per loop through the injected
 * {@link MemoryUsageSource} (Prometheus in `tailor run`): one query for every namespace the loop
 * plans in (batched, never per pod). Fail safe: when the read fails, or no source is configured,
 * the planner gets no usage, so no memory limit is lowered (the floor needs a known peak) and the
 * pressure guard cannot fire; the caller logs and counts it.
 */
import type { ContainerMemoryUsage, MemoryUsageSource, MemoryUsageWindows } from '../metrics/memory-usage-source.ts';
import type { ContainerUsage, PodUsage } from './container-usage.ts';
import type { UpdaterOptions } from '../policy/update-thresholds.ts';
import type { WorkloadGroup } from './updater-plan.ts';

/** A sample must precede the pressure window by at most this much for the window to count as covered (scrapes up to 1 min apart). */
export const PRESSURE_COVERAGE_MS = 60_000;

/** Usage by `namespace/pod`, then container name. */
export type UsageByPod = ReadonlyMap<string, PodUsage>;

/** What one read gave. */
export type UsageRead = { available: true; usage: UsageByPod } | { available: false; usage: UsageByPod; error?: unknown };

/** The windows of the query, from the options. */
export function usageWindows(options: Pick<UpdaterOptions, 'memoryPeakWindowMs' | 'memoryPressureWindowMs'>): MemoryUsageWindows {
  return { peakWindowMs: options.memoryPeakWindowMs, pressureWindowMs: options.memoryPressureWindowMs, coverageMs: PRESSURE_COVERAGE_MS };
}

/**
 * Pure: the source's answer as the planner's {@link PodUsage} per pod. A sustained value covers
 * the whole pressure window (the query only returns it then), so its window is that window.
 */
export function podUsageFrom(containers: readonly ContainerMemoryUsage[], pressureWindowMs: number): Map<string, PodUsage> {
  const out = new Map<string, Record<string, ContainerUsage>>();
  for (const c of containers) {
    const id = `${c.key.namespace}/${c.key.pod}`;
    const pod = out.get(id) ?? {};
    out.set(id, pod);
    pod[c.key.container] = {
      ...(c.peakBytes !== undefined ? { memoryPeakBytes: c.peakBytes } : {}),
      ...(c.sustainedBytes !== undefined ? { memoryWorkingSetMinBytes: c.sustainedBytes, memoryWindowMs: pressureWindowMs } : {}),
    };
  }
  return out;
}

/** Reads usage for `namespaces` at `now`; never throws. */
export async function readUsage(
  source: MemoryUsageSource | undefined,
  namespaces: readonly string[],
  now: number,
  options: UpdaterOptions,
): Promise<UsageRead> {
  if (!source) return { available: false, usage: new Map() };
  if (namespaces.length === 0) return { available: true, usage: new Map() };
  try {
    const answer = await source.memoryUsage(namespaces, now, usageWindows(options));
    return { available: true, usage: podUsageFrom(answer, options.memoryPressureWindowMs) };
  } catch (error) {
    return { available: false, usage: new Map(), error };
  }
}

/** The namespaces the groups' pods are in (what {@link readUsage} asks for). */
export function namespacesOf(groups: readonly WorkloadGroup[]): string[] {
  return [...new Set(groups.flatMap((g) => g.pods.map((p) => p.metadata?.namespace ?? 'default')))];
}

/** Sets each group's `usage` to its pods' entries in `usage` (groups without any are left alone). */
export function attachUsage(groups: WorkloadGroup[], usage: UsageByPod): void {
  for (const g of groups) {
    const byPod = Object.fromEntries(
      g.pods
        .map((p) => [p.metadata?.name ?? '', usage.get(`${p.metadata?.namespace ?? 'default'}/${p.metadata?.name ?? ''}`)])
        .filter(([, u]) => u !== undefined),
    );
    if (Object.keys(byPod).length > 0) g.usage = byPod;
  }
}
