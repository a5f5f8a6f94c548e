/**
 * Pure planning of range queries: evaluation times aligned to the step, and ranges split so no
 * series exceeds Prometheus' limit of 11,000 points and no answer exceeds a points budget.
 */
import type { StepRange } from './metrics-source.ts';

/** Prometheus refuses range queries with more points per series than this. */
export const PROMETHEUS_MAX_POINTS_PER_SERIES = 11_000;

/** The aligned range covering (`from`, `to`]: first point after `from`, last at or before `to`. */
export function alignedRange(from: number, to: number, step: number): StepRange | undefined {
  const start = Math.floor(from / step) * step + step;
  const end = Math.floor(to / step) * step;
  return end >= start ? { start, end, step } : undefined;
}

/** Number of evaluation points in a range: (end - start) / step + 1. */
export function pointsIn(range: StepRange): number {
  return Math.floor((range.end - range.start) / range.step) + 1;
}

/**
 * Splits a range into consecutive, non-overlapping chunks of at most `maxPoints` points each.
 * Worked example: 8 days at a 60 s step is 11,520 points; with maxPoints 11,000 that is two chunks
 * of 11,000 and 520 points, the second starting one step after the first ends.
 */
export function splitRange(range: StepRange, maxPoints: number): StepRange[] {
  const per = Math.max(1, Math.floor(maxPoints));
  const chunks: StepRange[] = [];
  for (let start = range.start; start <= range.end; start += per * range.step) {
    chunks.push({ start, end: Math.min(range.end, start + (per - 1) * range.step), step: range.step });
  }
  return chunks;
}

/**
 * Points per chunk for a batch of `series` series: the answer stays under `maxPointsPerQuery`
 * points in total and every series under the 11,000 limit. E.g. 500 series, budget 250,000 ->
 * 500 points per chunk.
 */
export function pointsPerChunk(series: number, maxPointsPerQuery: number): number {
  return Math.max(1, Math.min(PROMETHEUS_MAX_POINTS_PER_SERIES, Math.floor(maxPointsPerQuery / Math.max(1, series))));
}
