/**
 * Recovery after the faults (issue 31 item 4: "every VPA with a fresh recommendation within 2
 * minutes of the last fault"), read from the checkpoints the recommender writes: a VPA counts as
 * fresh once one of its checkpoints has a `lastUpdateTime` after the last fault ended, since the
 * recommender writes a checkpoint from the model it recommends from. Pure: the runner polls the
 * checkpoints and keeps the first time each VPA was seen fresh.
 */
import type { VerticalPodAutoscalerCheckpoint } from '../../src/api/vpa-checkpoint.ts';

/** How soon after the last fault every VPA must be fresh. */
export const RECOVERY_MS = 120_000;

/** Adds to `fresh` each VPA in `checkpoints` updated after `since` (ms) and not seen before, at its update time. */
export function noteFresh(fresh: Map<string, number>, checkpoints: readonly VerticalPodAutoscalerCheckpoint[], since: number): void {
  for (const c of checkpoints) {
    const vpa = c.spec?.vpaObjectName;
    const at = c.status?.lastUpdateTime ? Date.parse(c.status.lastUpdateTime) : Number.NaN;
    if (!vpa || !(at > since)) continue;
    const seen = fresh.get(vpa);
    if (seen === undefined || at < seen) fresh.set(vpa, at);
  }
}

/** The recovery: the slowest VPA's time to fresh (ms after `since`), and the VPAs not fresh within RECOVERY_MS. */
export function recovery(fresh: ReadonlyMap<string, number>, vpas: readonly string[], since: number): { slowestMs: number | undefined; late: string[] } {
  const late = vpas.filter((v) => !(fresh.has(v) && fresh.get(v)! - since <= RECOVERY_MS));
  const times = vpas.filter((v) => fresh.has(v)).map((v) => fresh.get(v)! - since);
  return { slowestMs: times.length === vpas.length && times.length > 0 ? Math.max(...times) : undefined, late };
}
