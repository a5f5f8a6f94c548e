/**
 * The table of model defaults in docs/recommender-model.md, generated from {@link MODEL_DEFAULTS}
 * (a test checks that the page contains exactly this table). Print it with
 * `node --import tsx scripts/model-defaults-table.ts`.
 */
import { MODEL_DEFAULTS, type ModelOptions } from './model-options.ts';

type Unit = 'cores' | 'bytes' | 'ms' | 'percentile' | 'fraction' | 'millicores' | 'number';

const ROWS: [keyof ModelOptions, Unit, string][] = [
  ['cpuFirstBucketCores', 'cores', 'width of the first CPU histogram bucket'],
  ['cpuMaxCores', 'cores', 'the CPU buckets reach at least this (176 buckets)'],
  ['memoryFirstBucketBytes', 'bytes', 'width of the first memory histogram bucket'],
  ['memoryMaxBytes', 'bytes', 'the memory buckets reach at least this (176 buckets)'],
  ['bucketGrowthRatio', 'number', 'each bucket is this many times wider than the previous one'],
  ['histogramEpsilon', 'number', 'a bucket lighter than this counts as empty'],
  ['cpuHalfLifeMs', 'ms', 'a CPU sample loses half its weight in this time'],
  ['memoryHalfLifeMs', 'ms', 'a memory peak loses half its weight in this time'],
  ['maxDecayExponent', 'number', 'half-lives after which the reference time moves (keeps weights finite)'],
  ['cpuSampleWeight', 'number', 'weight of each CPU usage sample before decay'],
  ['memoryAggregationIntervalMs', 'ms', 'one memory peak per container instance per interval'],
  ['memoryAggregationIntervalCount', 'number', 'intervals in the memory window (a state idle this long expires)'],
  ['oomBumpUpRatio', 'number', 'an OOM kill records max(used x ratio, used + min bump)'],
  ['oomMinBumpUpBytes', 'bytes', 'the minimum OOM bump'],
  ['targetCpuPercentile', 'percentile', 'CPU target: percentile of usage samples'],
  ['targetMemoryPercentile', 'percentile', 'memory target: percentile of interval peaks'],
  ['lowerBoundCpuPercentile', 'percentile', 'CPU lower bound percentile'],
  ['lowerBoundMemoryPercentile', 'percentile', 'memory lower bound percentile'],
  ['upperBoundCpuPercentile', 'percentile', 'CPU upper bound percentile'],
  ['upperBoundMemoryPercentile', 'percentile', 'memory upper bound percentile'],
  ['safetyMarginFraction', 'fraction', 'added to every percentile'],
  ['upperBoundConfidenceMultiplier', 'number', 'upper bound x (1 + m/c)^e: m'],
  ['upperBoundConfidenceExponent', 'number', 'upper bound x (1 + m/c)^e: e (x3 at 12h, x2 at 24h, x1.14 at a week)'],
  ['lowerBoundConfidenceMultiplier', 'number', 'lower bound x (1 + m/c)^e: m'],
  ['lowerBoundConfidenceExponent', 'number', 'lower bound x (1 + m/c)^e: e (x0 with no history, x0.95 at 1h)'],
  ['podMinCpuMillicores', 'millicores', 'per-pod CPU floor, split across its containers'],
  ['podMinMemoryBytes', 'bytes', 'per-pod memory floor, split across its containers'],
  ['maxResourceAmount', 'number', 'estimates saturate here (millicores / bytes): an unbounded upper bound reads as this'],
];

function formatValue(value: number, unit: Unit): string {
  switch (unit) {
    case 'cores':
      return `${value} ${value === 1 ? 'core' : 'cores'}`;
    case 'millicores':
      return `${value}m`;
    case 'ms':
      return value % 3_600_000 === 0 ? `${value / 3_600_000}h` : `${value} ms`;
    case 'percentile':
      return `${value} (p${Math.round(value * 100)})`;
    case 'fraction':
      return `${value} (+${Math.round(value * 100)}%)`;
    case 'bytes': {
      const MiB = 1024 * 1024;
      if (value % MiB === 0) return `${value / MiB} MiB`;
      const exponent = Math.log10(value);
      return Number.isInteger(exponent) ? `1e${exponent} bytes` : `${value} bytes`;
    }
    case 'number':
      return Math.abs(value) >= 1e6 ? value.toExponential().replace('e+', 'e') : String(value);
  }
}

/** The Markdown table: option name, default, meaning. */
export function modelDefaultsTable(defaults: Readonly<ModelOptions> = MODEL_DEFAULTS): string {
  const lines = ['| option | default | meaning |', '|---|---|---|'];
  for (const [key, unit, meaning] of ROWS) lines.push(`| \`${key}\` | ${formatValue(defaults[key], unit)} | ${meaning} |`);
  return lines.join('\n');
}

/** The option names the table covers (a test checks it covers every option). */
export function modelDefaultsTableKeys(): (keyof ModelOptions)[] {
  return ROWS.map(([key]) => key);
}
