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
 * The recovery after `since` of the VPAs served before it (a checkpoint written at or before
 * `since`): the slowest one's time to its first update after it (ms; known only when every one had
 * one), and those with none within RECOVERY_MS. A VPA not served by then (a CronJob whose first pod
 * ran late in a short run: its first recommendation comes minutes after its VPA) has nothing to
 * recover: it is listed in `unserved` with when it was first served, if it was.
 */
export function recovery(
  seen: ReadonlyMap<string, ReadonlySet<number>>,
  vpas: readonly string[],
  since: number,
): { slowestMs: number | undefined; late: string[]; unserved: Array<{ vpa: string; firstAfterMs: number | undefined }> } {
  const first = new Map<string, number>();
  const served: string[] = [];
  const unserved: Array<{ vpa: string; firstAfterMs: number | undefined }> = [];
  for (const v of vpas) {
    const times = [...(seen.get(v) ?? [])];
    const after = times.filter((t) => t > since);
    const firstAfter = after.length > 0 ? Math.min(...after) - since : undefined;
    if (times.some((t) => t <= since)) {
      served.push(v);
      if (firstAfter !== undefined) first.set(v, firstAfter);
    } else unserved.push({ vpa: v, firstAfterMs: firstAfter });
  }
  const late = served.filter((v) => !(first.get(v)! <= RECOVERY_MS));
  return { slowestMs: first.size === served.length && served.length > 0 ? Math.max(...first.values()) : undefined, late, unserved };
}
