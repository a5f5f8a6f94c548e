/**
 * Pure conversion of Prometheus matrix answers into container series: labels mapped to container
 * keys, NaN / +-Inf samples dropped and counted, missing steps counted, and series of the same
 * container (several chunks, several answers, duplicate jobs) merged deterministically: by time,
 * keeping the larger value when two samples share a time.
 */
import type { ContainerKey, ContainerSeries, DataQuality, StepRange } from './metrics-source.ts';
import { compareContainerIds } from './metrics-source.ts';
import type { LabelNames } from './metric-names.ts';

/** The container key of a label set, or undefined when a label is missing. */
export function keyOf(labels: object, names: LabelNames): ContainerKey | undefined {
  const l = labels as Record<string, unknown>;
  const namespace = l[names.namespace];
  const pod = l[names.pod];
  const container = l[names.container];
  if (typeof namespace !== 'string' || typeof pod !== 'string' || typeof container !== 'string' || container === '' || container === 'POD') return undefined;
  return { namespace, pod, container };
}

/** One element of a matrix answer as the API's JSON has it: `values` are `[seconds, "value"]`. */
export interface JsonRangeSeries {
  metric?: Record<string, unknown>;
  values?: Array<[number, string]>;
}

/**
 * Decodes one element of a matrix answer straight from the API's JSON (no Date per sample), as the
 * streamed answers hand them over; non-finite samples are counted in `quality`. Undefined when
 * the labels do not name a container or no sample is finite.
 */
export function decodeJsonSeries(item: JsonRangeSeries, names: LabelNames, quality: DataQuality): ContainerSeries | undefined {
  const key = keyOf(item.metric ?? {}, names);
  if (!key || !Array.isArray(item.values)) return undefined;
  const times: number[] = [];
  const values: number[] = [];
  for (const [seconds, text] of item.values) {
    const value = parseFloat(text);
    if (!Number.isFinite(value)) {
      quality.nonFinite++;
      continue;
    }
    times.push(Math.round(seconds * 1000));
    values.push(value);
  }
  return times.length > 0 ? { key, times, values } : undefined;
}

/** Merges decoded parts per container and counts the gaps of the merged series (step `range.step`). */
export function finishMatrix(parts: readonly ContainerSeries[], range: StepRange, quality: DataQuality): { series: ContainerSeries[]; quality: DataQuality } {
  const series = mergeSeries(parts);
  for (const s of series) quality.gapSteps += countGapSteps(s.times, range.step);
  return { series, quality };
}

/** Missing steps between the first and last point: times [0, 60, 240] at step 60 -> 2 (120, 180). */
export function countGapSteps(times: readonly number[], step: number): number {
  let gaps = 0;
  for (let i = 1; i < times.length; i++) gaps += Math.max(0, Math.round((times[i]! - times[i - 1]!) / step) - 1);
  return gaps;
}

/**
 * Merges series with the same key: union of times, the larger value on a shared time; sorted by
 * key (the order of their `namespace/pod/container` ids). The parts are sorted with a comparator rather
 * than grouped by id strings: an incremental cycle hands over one short series per container, and
 * building, hashing and sorting 100,000 id strings cost more than the samples themselves.
 */
export function mergeSeries(parts: readonly ContainerSeries[]): ContainerSeries[] {
  // Stable: parts of one container keep their order, as the merge below relies on nothing else.
  const sorted = [...parts].sort((a, b) => compareContainerIds(a.key, b.key));
  const out: ContainerSeries[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i + 1;
    while (j < sorted.length && compareContainerIds(sorted[i]!.key, sorted[j]!.key) === 0) j++;
    out.push(j === i + 1 ? sorted[i]! : mergeSame(sorted.slice(i, j)));
    i = j;
  }
  return out;
}

/** Series of one container merged: the union of their times, the larger value on a shared time. */
function mergeSame(list: readonly ContainerSeries[]): ContainerSeries {
  const points = new Map<number, number>();
  for (const s of list) {
    for (let i = 0; i < s.times.length; i++) {
      const t = s.times[i]!;
      const v = s.values[i]!;
      const prev = points.get(t);
      if (prev === undefined || v > prev) points.set(t, v);
    }
  }
  const times = [...points.keys()].sort((a, b) => a - b);
  return { key: list[0]!.key, times, values: times.map((t) => points.get(t)!) };
}
