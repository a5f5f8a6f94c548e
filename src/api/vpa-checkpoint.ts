/**
 * The upstream `VerticalPodAutoscalerCheckpoint` custom resource (autoscaling.k8s.io/v1): one per
 * VPA x container, named `<vpa>-<container>`, holding the recommender's histograms so a restart
 * does not lose the history. Status format "v3": each histogram is
 * `{referenceTimestamp, totalWeight, bucketWeights: {"<index>": <uint32>}}` with the weights
 * normalised so that the largest is 10000.
 *
 * {@link parseCheckpointStatus} validates an object read from the API (written by Tailor or by the
 * upstream recommender) into numbers, or throws a {@link CheckpointError} naming the field.
 */
import { formatRfc3339, parseRfc3339 } from './rfc3339.ts';

export const CHECKPOINT_API_VERSION = 'autoscaling.k8s.io/v1';
export const CHECKPOINT_KIND = 'VerticalPodAutoscalerCheckpoint';
/** The only status format Tailor reads and writes (the upstream recommender's current one). */
export const SUPPORTED_CHECKPOINT_VERSION = 'v3';
/** Bucket weights are scaled so the largest is this. */
export const MAX_CHECKPOINT_WEIGHT = 10000;
const MAX_UINT32 = 4294967295;

/** One histogram as stored in a checkpoint (JSON shape). */
export interface HistogramCheckpoint {
  /** RFC 3339; null (or absent) for a histogram that never saw a sample. */
  referenceTimestamp?: string | null;
  /** Bucket index (decimal string) -> weight, largest = 10000. Absent when empty. */
  bucketWeights?: Record<string, number>;
  /** Sum of the histogram's weights: the denominator for bucketWeights. Absent when 0. */
  totalWeight?: number;
}

export interface VerticalPodAutoscalerCheckpointSpec {
  vpaObjectName?: string;
  containerName?: string;
}

export interface VerticalPodAutoscalerCheckpointStatus {
  lastUpdateTime?: string | null;
  version?: string;
  cpuHistogram?: HistogramCheckpoint;
  memoryHistogram?: HistogramCheckpoint;
  firstSampleStart?: string | null;
  lastSampleStart?: string | null;
  totalSamplesCount?: number;
}

export interface VerticalPodAutoscalerCheckpoint {
  apiVersion: typeof CHECKPOINT_API_VERSION;
  kind: typeof CHECKPOINT_KIND;
  metadata: { name: string; namespace?: string; resourceVersion?: string; labels?: Record<string, string>; [key: string]: unknown };
  spec: VerticalPodAutoscalerCheckpointSpec;
  status?: VerticalPodAutoscalerCheckpointStatus;
}

/** A histogram checkpoint in numbers. */
export interface ParsedHistogramCheckpoint {
  /** ms since the epoch; undefined when the histogram never saw a sample. */
  referenceTime: number | undefined;
  totalWeight: number;
  /** [bucket index, stored weight] pairs in ascending index order. */
  bucketWeights: [number, number][];
}

/** A checkpoint status in numbers (times in ms since the epoch). */
export interface ParsedCheckpointStatus {
  version: string;
  lastUpdateTime: number | undefined;
  firstSampleStart: number | undefined;
  lastSampleStart: number | undefined;
  totalSamplesCount: number;
  cpuHistogram: ParsedHistogramCheckpoint;
  memoryHistogram: ParsedHistogramCheckpoint;
}

/** A malformed or unsupported checkpoint; `field` is the JSON path of the problem. */
export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
  constructor(
    readonly field: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(`checkpoint ${field}: ${problem}`, options);
  }
}

/** The checkpoint object name upstream uses: `<vpa>-<container>`. */
export function checkpointName(vpaName: string, containerName: string): string {
  return `${vpaName}-${containerName}`;
}

/** A complete checkpoint object for a VPA's container. */
export function buildCheckpoint(
  namespace: string,
  vpaName: string,
  containerName: string,
  status: VerticalPodAutoscalerCheckpointStatus,
): VerticalPodAutoscalerCheckpoint {
  return {
    apiVersion: CHECKPOINT_API_VERSION,
    kind: CHECKPOINT_KIND,
    metadata: { name: checkpointName(vpaName, containerName), namespace },
    spec: { vpaObjectName: vpaName, containerName },
    status,
  };
}

/** Formats an optional time as metav1.Time does (null for none). */
export function checkpointTime(ms: number | undefined): string | null {
  return ms === undefined ? null : formatRfc3339(ms);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalTime(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new CheckpointError(field, `expected an RFC 3339 string, got ${JSON.stringify(value)}`);
  try {
    return parseRfc3339(value);
  } catch (err) {
    throw new CheckpointError(field, (err as Error).message, { cause: err });
  }
}

function parseHistogram(value: unknown, field: string): ParsedHistogramCheckpoint {
  if (value === undefined || value === null) return { referenceTime: undefined, totalWeight: 0, bucketWeights: [] };
  if (!isObject(value)) throw new CheckpointError(field, 'expected an object');
  const totalWeight = value.totalWeight ?? 0;
  if (typeof totalWeight !== 'number' || !Number.isFinite(totalWeight) || totalWeight < 0) {
    throw new CheckpointError(`${field}.totalWeight`, `expected a finite number >= 0, got ${JSON.stringify(totalWeight)}`);
  }
  const rawWeights = value.bucketWeights ?? {};
  if (!isObject(rawWeights)) throw new CheckpointError(`${field}.bucketWeights`, 'expected an object of "<bucket index>": <weight>');
  const bucketWeights: [number, number][] = [];
  for (const [key, weight] of Object.entries(rawWeights)) {
    const path = `${field}.bucketWeights[${JSON.stringify(key)}]`;
    if (!/^(0|[1-9]\d{0,5})$/.test(key)) throw new CheckpointError(path, 'the bucket index must be a non-negative integer');
    if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 0 || weight > MAX_UINT32) {
      throw new CheckpointError(path, `the weight must be an integer in [0, ${MAX_UINT32}], got ${JSON.stringify(weight)}`);
    }
    bucketWeights.push([Number(key), weight]);
  }
  bucketWeights.sort((a, b) => a[0] - b[0]);
  const referenceTime = optionalTime(value.referenceTimestamp, `${field}.referenceTimestamp`);
  const holdsWeight = totalWeight > 0 && bucketWeights.some(([, w]) => w > 0);
  if (holdsWeight && referenceTime === undefined) {
    throw new CheckpointError(`${field}.referenceTimestamp`, 'missing for a histogram that holds weight');
  }
  return { referenceTime, totalWeight, bucketWeights };
}

/**
 * Validates a checkpoint `status` (format "v3") into numbers. Absent fields take their zero value,
 * as upstream omits them when empty. Throws {@link CheckpointError} naming the first bad field.
 */
export function parseCheckpointStatus(status: unknown): ParsedCheckpointStatus {
  if (!isObject(status)) throw new CheckpointError('status', 'expected an object');
  const version = status.version;
  if (version !== SUPPORTED_CHECKPOINT_VERSION) {
    throw new CheckpointError('status.version', `unsupported version ${JSON.stringify(version)}: Tailor reads ${JSON.stringify(SUPPORTED_CHECKPOINT_VERSION)}`);
  }
  const totalSamplesCount = status.totalSamplesCount ?? 0;
  if (typeof totalSamplesCount !== 'number' || !Number.isSafeInteger(totalSamplesCount) || totalSamplesCount < 0) {
    throw new CheckpointError('status.totalSamplesCount', `expected a whole number >= 0, got ${JSON.stringify(totalSamplesCount)}`);
  }
  const firstSampleStart = optionalTime(status.firstSampleStart, 'status.firstSampleStart');
  const lastSampleStart = optionalTime(status.lastSampleStart, 'status.lastSampleStart');
  if (firstSampleStart !== undefined && lastSampleStart !== undefined && firstSampleStart > lastSampleStart) {
    throw new CheckpointError('status.firstSampleStart', 'is after status.lastSampleStart');
  }
  if (totalSamplesCount > 0 && (firstSampleStart === undefined || lastSampleStart === undefined)) {
    throw new CheckpointError('status.firstSampleStart', 'first and last sample times are required when totalSamplesCount > 0');
  }
  return {
    version,
    lastUpdateTime: optionalTime(status.lastUpdateTime, 'status.lastUpdateTime'),
    firstSampleStart,
    lastSampleStart,
    totalSamplesCount,
    cpuHistogram: parseHistogram(status.cpuHistogram, 'status.cpuHistogram'),
    memoryHistogram: parseHistogram(status.memoryHistogram, 'status.memoryHistogram'),
  };
}
