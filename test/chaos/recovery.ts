/**
 * Recovery after the faults (issue 31 item 4: "every VPA with a fresh recommendation within 2
 * minutes of the last fault"), read from the checkpoints the recommender writes: a VPA counts as
 * fresh once one of its checkpoints has a `lastUpdateTime` after the last fault ended, since the
 * recommender writes a checkpoint from the model it recommends from. The runner polls the
 * checkpoints all through the run and keeps every update time seen (a checkpoint written again
 * hides the write before it), so the first write after the last fault is known however late the
 * last fault ends.
 */
import type { VerticalPodAutoscalerCheckpoint } from '../../src/api/vpa-checkpoint.ts';

/** How soon after the last fault every VPA must be fresh. */
export const RECOVERY_MS = 120_000;

/** Adds each checkpoint's update time (ms) to its VPA's set in `seen`. */
export function noteUpdates(seen: Map<string, Set<number>>, checkpoints: readonly VerticalPodAutoscalerCheckpoint[]): void {
  for (const c of checkpoints) {
    const vpa = c.spec?.vpaObjectName;
    const at = c.status?.lastUpdateTime ? Date.parse(c.status.lastUpdateTime) : Number.NaN;
    if (!vpa || !Number.isFinite(at)) continue;
    const times = seen.get(vpa) ?? new Set<number>();
    times.add(at);
    seen.set(vpa, times);
  }
}

/**
 * The recovery after `since`: the slowest VPA's time to its first update after it (ms; known only
 * when every VPA had one), and the VPAs with none within RECOVERY_MS.
 */
export function recovery(
  seen: ReadonlyMap<string, ReadonlySet<number>>,
  vpas: readonly string[],
  since: number,
): { slowestMs: number | undefined; late: string[] } {
  const first = new Map<string, number>();
  for (const v of vpas) {
    const after = [...(seen.get(v) ?? [])].filter((t) => t > since);
    if (after.length > 0) first.set(v, Math.min(...after) - since);
  }
  const late = vpas.filter((v) => !(first.get(v)! <= RECOVERY_MS));
  return { slowestMs: first.size === vpas.length && vpas.length > 0 ? Math.max(...first.values()) : undefined, late };
}
