/**
 * Pure sizing of the history reads from a memory budget (`--memory-budget`, decisions 0225, 0227):
 * at each read the answers in flight get 40% of what the process has left of the budget (at most
 * a quarter of the budget); the rest is the garbage collector's room. Answers are decoded series by series as
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

/**
 * The share of the headroom (budget minus what the process holds) the answers in flight may use.
 * Measured (1,000 containers, 192Mi, docs/scale.md): with the answers' garbage until the next
 * collection, the peak rose by about twice the 72 B per point in flight; 0.4 keeps a fifth of the
 * headroom free beyond that.
 */
export const HEADROOM_SHARE = 0.4;

/** What the process holds and will hold when a read starts, for {@link pointsForHeadroom}. */
export interface MemoryState {
  budgetBytes: number;
  /** The process's resident set now. */
  residentBytes: number;
  /** What the model will grow by during the read (new histories x bytes per history). */
  growthBytes: number;
  concurrency: number;
}

/**
 * Points per answer sized from what is left of the budget, not from the budget alone: the process's
 * own base (100-140 MiB, more under tsx) and the model are already in the resident set, so a fixed
 * quarter overshot small budgets (192Mi: peak 205 MiB, docs/scale.md). {@link HEADROOM_SHARE} of
 * the headroom goes to the answers in flight (the rest is the collector's room), never more than
 * the fixed quarter of {@link pointsForBudget}, never fewer than {@link MIN_POINTS_PER_QUERY}.
 * Worked example: 192 MiB budget, 137 MiB resident, 3 MiB of model to come, 2 batches:
 * (192 - 137 - 3) MiB x 0.4 / (2 x 3 x 72 B) = 50,486 points (the fixed quarter: 116,508).
 */
export function pointsForHeadroom(state: MemoryState): number {
  const inFlight = Math.max(1, state.concurrency) * QUERIES_PER_BATCH;
  const headroom = Math.max(0, state.budgetBytes - state.residentBytes - state.growthBytes);
  const fromHeadroom = Math.floor((headroom * HEADROOM_SHARE) / (inFlight * BYTES_PER_POINT_IN_FLIGHT));
  return Math.max(MIN_POINTS_PER_QUERY, Math.min(pointsForBudget(state.budgetBytes, state.concurrency), fromHeadroom));
}

/**
 * The smallest budget this read fits in: what the process holds, the model still to come, and the
 * smallest answers in flight with the collector's room beside them ({@link HEADROOM_SHARE}).
 * Worked example: 137 MiB resident, 3 MiB to come, 2 batches: 140 MiB + 11,000 x 6 x 72 B / 0.4
 * = 140 MiB + 11.3 MiB = 151.3 MiB.
 */
export function minimumBudgetBytes(state: Omit<MemoryState, 'budgetBytes'>): number {
  const inFlight = Math.max(1, state.concurrency) * QUERIES_PER_BATCH;
  return Math.ceil(state.residentBytes + state.growthBytes + (MIN_POINTS_PER_QUERY * inFlight * BYTES_PER_POINT_IN_FLIGHT) / HEADROOM_SHARE);
}

/** True when the headroom cannot hold even the smallest answers: the budget is too small for the process. */
export function budgetExhausted(state: MemoryState): boolean {
  return state.budgetBytes < minimumBudgetBytes(state);
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
    if (bytes < MIN_MEMORY_BUDGET_BYTES)
      throw new Error(`must be at least ${memoryType.format(MIN_MEMORY_BUDGET_BYTES)}: the process alone needs about that much`);
    return bytes;
  },
};
