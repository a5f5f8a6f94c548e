/**
 * What one VPA x container history holds in memory, by strategy, for the
 * `tailor_recommender_model_bytes` estimate: the upstream state (kept with every strategy for the
 * checkpoints) about 2.1 KiB, a tailor model about 3.4 KiB more (decision 0260; both measured
 * after 8 days of 1-minute samples with `npm run bench:model-bytes`).
 */
export const HISTORY_BYTES = { vpa: 2 * 1024, tailor: 6 * 1024 } as const;

/** Estimated bytes of `histories` histories of a strategy (unknown strategies count as tailor's). */
export function modelBytes(strategy: string, histories: number): number {
  return histories * (strategy === 'vpa' ? HISTORY_BYTES.vpa : HISTORY_BYTES.tailor);
}
