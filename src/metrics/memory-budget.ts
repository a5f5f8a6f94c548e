/**
 * Pure sizing of the history reads from a memory budget (`--memory-budget`, decision 0225): the
 * answers in flight get a quarter of the budget; the rest is for the process itself (about
 * 100-140 MiB), the model, and the garbage collector's room. Answers are decoded series by series as
 * they arrive (matrix-stream.ts), so what an answer costs in flight is its decoded samples.
 */
import { memoryType, type OptionType } from '../config/option-types.ts';

/**
 * Bytes one point of an answer costs while in flight: 2 x 8-byte numbers in growable arrays, the
 * merge copy, and the garbage of the per-series parse until the next collection. Measured: peak
 * minus steady RSS over the points in flight, 1,000 containers at 250,000 points per answer, ~70 B
 * (docs/scale.md).
 */
export const BYTES_PER_POINT_IN_FLIGHT = 72;
/** The share of the budget the answers in flight may use. */
export const ANSWER_SHARE = 0.25;
/** Range queries in flight per namespace batch (CPU, memory peaks, OOM kills at the same time). */
export const QUERIES_PER_BATCH = 3;
/** Smallest answer the budget can ask for (points): smaller only multiplies the queries. */
export const MIN_POINTS_PER_QUERY = 11_000;
/** The smallest budget accepted: the process alone needs about this much. */
export const MIN_MEMORY_BUDGET_BYTES = 128 * 2 ** 20;

/**
 * Points per answer a budget allows with `concurrency` batches read at once. Worked example:
 * 512 MiB, 2 batches: 128 MiB / (2 x 3 x 72 B) = 310,689 points.
 */
export function pointsForBudget(budgetBytes: number, concurrency: number): number {
  const inFlight = Math.max(1, concurrency) * QUERIES_PER_BATCH;
  return Math.max(MIN_POINTS_PER_QUERY, Math.floor((budgetBytes * ANSWER_SHARE) / (inFlight * BYTES_PER_POINT_IN_FLIGHT)));
}

/** The points per answer actually used: the configured ceiling, lowered to what the budget allows. */
export function effectivePointsPerQuery(maxPointsPerQuery: number, concurrency: number, budgetBytes?: number): number {
  return budgetBytes === undefined ? maxPointsPerQuery : Math.min(maxPointsPerQuery, pointsForBudget(budgetBytes, concurrency));
}

/** `--memory-budget`: a memory quantity (`512Mi`) of at least {@link MIN_MEMORY_BUDGET_BYTES}. */
export const memoryBudgetType: OptionType<number> = {
  ...memoryType,
  parse: (text) => {
    const bytes = memoryType.parse(text);
    if (bytes < MIN_MEMORY_BUDGET_BYTES) throw new Error(`must be at least ${memoryType.format(MIN_MEMORY_BUDGET_BYTES)}: the process alone needs about that much`);
    return bytes;
  },
};
