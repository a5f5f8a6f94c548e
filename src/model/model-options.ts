/**
 * Every constant of the recommendation model in one typed object, with the upstream VPA defaults
 * (kubernetes/autoscaler vertical-pod-autoscaler 1.x). The defaults table in docs/recommender-model.md is checked
 * against {@link MODEL_DEFAULTS} by a test, so the docs stay true.
 *
 * Units: CPU in cores inside histograms and millicores in recommendations, memory in bytes, time
 * in milliseconds.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const MiB = 1024 * 1024;

/** The model's tunables. */
export interface ModelOptions {
  /** Width of the first CPU bucket, in cores. */
  cpuFirstBucketCores: number;
  /** Largest CPU value the buckets must reach, in cores. */
  cpuMaxCores: number;
  /** Width of the first memory bucket, in bytes. */
  memoryFirstBucketBytes: number;
  /** Largest memory value the buckets must reach, in bytes. */
  memoryMaxBytes: number;
  /** Each bucket is this many times wider than the previous one (1.05 = 5% wider). */
  bucketGrowthRatio: number;
  /** A bucket with less weight than this counts as empty. */
  histogramEpsilon: number;
  /** Time for a CPU sample to lose half its weight. */
  cpuHalfLifeMs: number;
  /** Time for a memory peak to lose half its weight. */
  memoryHalfLifeMs: number;
  /** Half-lives after the reference time at which a histogram is renormalised (keeps weights finite). */
  maxDecayExponent: number;
  /** Weight of each CPU usage sample before decay. */
  cpuSampleWeight: number;
  /** Length of one memory aggregation interval: one peak per container instance per interval. */
  memoryAggregationIntervalMs: number;
  /** Number of intervals in the memory history window (also the expiry age of an idle state). */
  memoryAggregationIntervalCount: number;
  /** An OOM kill records max(used x this, used + oomMinBumpUpBytes) as the interval's peak. */
  oomBumpUpRatio: number;
  /** Minimum bump over the memory in use at an OOM kill, in bytes. */
  oomMinBumpUpBytes: number;
  /** CPU usage percentile for the target. */
  targetCpuPercentile: number;
  /** Memory peak percentile for the target. */
  targetMemoryPercentile: number;
  /** CPU usage percentile for the lower bound. */
  lowerBoundCpuPercentile: number;
  /** Memory peak percentile for the lower bound. */
  lowerBoundMemoryPercentile: number;
  /** CPU usage percentile for the upper bound. */
  upperBoundCpuPercentile: number;
  /** Memory peak percentile for the upper bound. */
  upperBoundMemoryPercentile: number;
  /** Added on top of every percentile: value x (1 + this). */
  safetyMarginFraction: number;
  /** Upper bound x (1 + multiplier/confidence)^exponent: the multiplier. */
  upperBoundConfidenceMultiplier: number;
  /** Upper bound x (1 + multiplier/confidence)^exponent: the exponent. */
  upperBoundConfidenceExponent: number;
  /** Lower bound x (1 + multiplier/confidence)^exponent: the multiplier. */
  lowerBoundConfidenceMultiplier: number;
  /** Lower bound x (1 + multiplier/confidence)^exponent: the exponent. */
  lowerBoundConfidenceExponent: number;
  /** Minimum CPU per pod, split evenly across its containers, in millicores. */
  podMinCpuMillicores: number;
  /** Minimum memory per pod, split evenly across its containers, in bytes. */
  podMinMemoryBytes: number;
  /** Every estimate saturates here (millicores or bytes): an "unbounded" upper bound is this value. */
  maxResourceAmount: number;
}

/** The upstream defaults. Frozen: copy with {@link resolveModelOptions} to change any of them. */
export const MODEL_DEFAULTS: Readonly<ModelOptions> = Object.freeze({
  cpuFirstBucketCores: 0.01,
  cpuMaxCores: 1000,
  memoryFirstBucketBytes: 1e7,
  memoryMaxBytes: 1e12,
  bucketGrowthRatio: 1.05,
  histogramEpsilon: 0.0001,
  cpuHalfLifeMs: DAY_MS,
  memoryHalfLifeMs: DAY_MS,
  maxDecayExponent: 100,
  cpuSampleWeight: 0.1,
  memoryAggregationIntervalMs: DAY_MS,
  memoryAggregationIntervalCount: 8,
  oomBumpUpRatio: 1.2,
  oomMinBumpUpBytes: 100 * MiB,
  targetCpuPercentile: 0.9,
  targetMemoryPercentile: 0.9,
  lowerBoundCpuPercentile: 0.5,
  lowerBoundMemoryPercentile: 0.5,
  upperBoundCpuPercentile: 0.95,
  upperBoundMemoryPercentile: 0.95,
  safetyMarginFraction: 0.15,
  upperBoundConfidenceMultiplier: 1,
  upperBoundConfidenceExponent: 1,
  lowerBoundConfidenceMultiplier: 0.001,
  lowerBoundConfidenceExponent: -2,
  podMinCpuMillicores: 25,
  podMinMemoryBytes: 250 * MiB,
  maxResourceAmount: 1e14,
});

/** An option out of its valid range; the message names the option and the value. */
export class ModelOptionsError extends Error {
  override readonly name = 'ModelOptionsError';
  constructor(
    readonly option: keyof ModelOptions | string,
    message: string,
  ) {
    super(`model option ${option}: ${message}`);
  }
}

type Rule = (value: number) => string | undefined;
const positive: Rule = (v) => (v > 0 && Number.isFinite(v) ? undefined : 'must be a positive finite number');
const nonNegative: Rule = (v) => (v >= 0 && Number.isFinite(v) ? undefined : 'must be a finite number >= 0');
const fraction: Rule = (v) => (v >= 0 && v <= 1 ? undefined : 'must be between 0 and 1');
const finite: Rule = (v) => (Number.isFinite(v) ? undefined : 'must be a finite number');
const aboveOne: Rule = (v) => (v > 1 && Number.isFinite(v) ? undefined : 'must be a finite number > 1');
const atLeastOne: Rule = (v) => (v >= 1 && Number.isFinite(v) ? undefined : 'must be a finite number >= 1');
const wholeAtLeastOne: Rule = (v) => (Number.isInteger(v) && v >= 1 ? undefined : 'must be a whole number >= 1');

const RULES: Record<keyof ModelOptions, Rule> = {
  cpuFirstBucketCores: positive,
  cpuMaxCores: positive,
  memoryFirstBucketBytes: positive,
  memoryMaxBytes: positive,
  bucketGrowthRatio: aboveOne,
  histogramEpsilon: positive,
  cpuHalfLifeMs: positive,
  memoryHalfLifeMs: positive,
  maxDecayExponent: (v) => (v > 0 && v <= 500 ? undefined : 'must be in (0, 500] to keep weights finite'),
  cpuSampleWeight: positive,
  memoryAggregationIntervalMs: positive,
  memoryAggregationIntervalCount: wholeAtLeastOne,
  oomBumpUpRatio: atLeastOne,
  oomMinBumpUpBytes: nonNegative,
  targetCpuPercentile: fraction,
  targetMemoryPercentile: fraction,
  lowerBoundCpuPercentile: fraction,
  lowerBoundMemoryPercentile: fraction,
  upperBoundCpuPercentile: fraction,
  upperBoundMemoryPercentile: fraction,
  safetyMarginFraction: nonNegative,
  upperBoundConfidenceMultiplier: nonNegative,
  upperBoundConfidenceExponent: finite,
  lowerBoundConfidenceMultiplier: nonNegative,
  lowerBoundConfidenceExponent: finite,
  podMinCpuMillicores: nonNegative,
  podMinMemoryBytes: nonNegative,
  maxResourceAmount: positive,
};

/** The defaults with `overrides` applied, validated. Throws {@link ModelOptionsError} naming the option. */
export function resolveModelOptions(overrides: Partial<ModelOptions> = {}): Readonly<ModelOptions> {
  const merged: ModelOptions = { ...MODEL_DEFAULTS };
  for (const [key, value] of Object.entries(overrides)) {
    if (!(key in RULES)) throw new ModelOptionsError(key, 'is not a model option');
    if (value === undefined) continue;
    merged[key as keyof ModelOptions] = value;
  }
  for (const key of Object.keys(RULES) as (keyof ModelOptions)[]) {
    const value = merged[key];
    const problem = typeof value === 'number' ? RULES[key](value) : 'must be a number';
    if (problem) throw new ModelOptionsError(key, `${problem}, got ${String(value)}`);
  }
  return Object.freeze(merged);
}
