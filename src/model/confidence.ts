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
 * exponent and 0 for a negative one; a zero multiplier gives 1. Never NaN. Whole exponents are
 * computed the way Go's math.Pow does (repeated squaring, then one division for a negative
 * exponent), so the last bit matches upstream's.
 */
export function confidenceFactor(multiplier: number, exponent: number, confidence: number): number {
  const ratio = multiplier === 0 ? 0 : multiplier / Math.max(0, confidence);
  return goPow(1 + ratio, exponent);
}

/** x^y as Go's math.Pow computes it for whole y with |y| <= 64 and finite x > 0; `**` otherwise. */
export function goPow(x: number, y: number): number {
  if (!Number.isInteger(y) || Math.abs(y) > 64 || !(x > 0) || x === Infinity) return x ** y;
  if (y === 0 || x === 1) return 1;
  if (y === 1) return x;
  let result = 1;
  let base = x;
  for (let i = Math.abs(y); i !== 0; i >>= 1) {
    if (i & 1) result *= base;
    base *= base;
  }
  return y < 0 ? 1 / result : result;
}
