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

/** The memory settings a VPA may set for one container (upstream 1.8's per-VPA fields). */
export type MemorySettings = Partial<
  Pick<ModelOptions, 'oomBumpUpRatio' | 'oomMinBumpUpBytes' | 'memoryAggregationIntervalMs' | 'memoryAggregationIntervalCount'>
>;

const derived = new WeakMap<ModelConfig, Map<string, ModelConfig>>();

/**
 * `config` with a VPA's memory settings (each one set replaces the config's; validated), sharing
 * its bucket tables, so histories of both configs merge. The same settings give the same object.
 * Throws ModelOptionsError for a value out of range.
 */
export function withMemorySettings(config: ModelConfig, settings: MemorySettings): ModelConfig {
  const set = Object.entries(settings)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  if (set.length === 0) return config;
  const key = JSON.stringify(set);
  let byKey = derived.get(config);
  if (!byKey) derived.set(config, (byKey = new Map()));
  let out = byKey.get(key);
  if (!out) {
    out = Object.freeze({ ...config, options: resolveModelOptions({ ...config.options, ...Object.fromEntries(set) }) });
    byKey.set(key, out);
  }
  return out;
}
