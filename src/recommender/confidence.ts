/**
 * How much history backs an estimate, and how the bounds widen when there is little of it.
 *
 * Confidence c = min(lifespan in days, samples / 1440): for a container sampled once a minute it is
 * the number of days of history. A bound is scaled by (1 + multiplier/c)^exponent:
 * - upper bound (multiplier 1, exponent 1): x3 at 12h (c = 0.5), x2 at 24h, x(1 + 1/7) = x1.14 at a
 *   week, and x infinity with no history (saturated at maxResourceAmount by the estimator);
 * - lower bound (multiplier 0.001, exponent -2): x0 with no history, x0.60 at 5 min, x0.95 at 1h.
 */
import type { AggregateContainerState } from './aggregate-container-state.ts';

const DAY_MS = 86_400_000;
/** Samples per day at one sample per minute. */
const SAMPLES_PER_DAY = 60 * 24;

/** c = min((last - first sample time) in days, sample count / 1440); 0 without samples. Never NaN. */
export function historyConfidence(state: Pick<AggregateContainerState, 'firstSampleStart' | 'lastSampleStart' | 'totalSamplesCount'>): number {
  const { firstSampleStart: first, lastSampleStart: last } = state;
  const lifespanDays = first === undefined || last === undefined ? 0 : Math.max(0, last - first) / DAY_MS;
  return Math.min(lifespanDays, state.totalSamplesCount / SAMPLES_PER_DAY);
}

/**
 * (1 + multiplier/c)^exponent for confidence c >= 0. With c = 0 this is Infinity for a positive
 * exponent and 0 for a negative one; a zero multiplier gives 1. Never NaN.
 */
export function confidenceFactor(multiplier: number, exponent: number, confidence: number): number {
  const ratio = multiplier === 0 ? 0 : multiplier / Math.max(0, confidence);
  return (1 + ratio) ** exponent;
}
