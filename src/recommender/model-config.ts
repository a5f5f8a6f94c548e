/**
 * Resolved model options plus the two bucketing schemes built from them. Build one per set of
 * options and share it across every container: the bucket tables are computed once.
 */
import { exponentialHistogramOptions, type HistogramOptions } from './histogram-options.ts';
import { resolveModelOptions, type ModelOptions } from './model-options.ts';

export interface ModelConfig {
  readonly options: Readonly<ModelOptions>;
  /** CPU buckets, in cores (176 with the defaults). */
  readonly cpuBuckets: HistogramOptions;
  /** Memory buckets, in bytes (176 with the defaults). */
  readonly memoryBuckets: HistogramOptions;
}

/** Builds a config from option overrides (validated; see {@link resolveModelOptions}). */
export function createModelConfig(overrides: Partial<ModelOptions> = {}): ModelConfig {
  const options = resolveModelOptions(overrides);
  return Object.freeze({
    options,
    cpuBuckets: exponentialHistogramOptions(options.cpuMaxCores, options.cpuFirstBucketCores, options.bucketGrowthRatio, options.histogramEpsilon),
    memoryBuckets: exponentialHistogramOptions(options.memoryMaxBytes, options.memoryFirstBucketBytes, options.bucketGrowthRatio, options.histogramEpsilon),
  });
}

let defaultConfig: ModelConfig | undefined;

/** The config with the upstream defaults (built once). */
export function defaultModelConfig(): ModelConfig {
  defaultConfig ??= createModelConfig();
  return defaultConfig;
}
