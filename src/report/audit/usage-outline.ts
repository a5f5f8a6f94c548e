/**
 * The usage outline of each workload container for the audit's charts: the window cut into at most
 * `points` equal buckets, and per bucket the highest CPU (millicores) and memory (bytes) any pod of
 * the workload used. Peaks, not means, so a short spike still shows against the request. Holds
 * two small arrays per workload container whatever the history's length (a week at one-minute
 * steps is 10,080 samples per pod; the outline is 100 numbers).
 */
import type { ContainerKey, ContainerSeries, OomEvent } from '../../metrics/metrics-source.ts';
import type { UsageSink } from '../../metrics/usage-feed.ts';
import type { OwnerIndex } from '../../metrics/owner-resolution.ts';
import { rowId } from '../report-rows.ts';

/** The charts' default resolution. */
export const OUTLINE_POINTS = 100;

/** One workload container's outline: bucket `i` covers [start + i*bucketMs, start + (i+1)*bucketMs). */
export interface Outline {
  start: number;
  bucketMs: number;
  /** Peak CPU per bucket (millicores), null where no sample fell. */
  cpu: (number | null)[];
  /** Peak memory per bucket (bytes), null where no sample fell. */
  memory: (number | null)[];
}

/** A {@link UsageSink} that keeps {@link Outline}s keyed by the report's row id. */
export class UsageOutline implements UsageSink {
  private readonly byId = new Map<string, Outline>();
  private readonly bucketMs: number;

  constructor(
    private readonly owners: OwnerIndex,
    private readonly start: number,
    end: number,
    private readonly points = OUTLINE_POINTS,
  ) {
    if (!(points >= 1) || !(end > start)) throw new RangeError(`an outline needs at least one point and a window (${points} points, ${start}..${end})`);
    this.bucketMs = (end - start) / points;
  }

  cpu(series: ContainerSeries): void {
    this.add(series, 'cpu', 1000);
  }

  memory(series: ContainerSeries): void {
    this.add(series, 'memory', 1);
  }

  oom(_event: OomEvent): void {}

  /** The outline of a row (by {@link rowId}), if any sample reached it. */
  get(id: string): Outline | undefined {
    return this.byId.get(id);
  }

  private add(series: ContainerSeries, resource: 'cpu' | 'memory', scale: number): void {
    const values = this.entry(series.key)[resource];
    for (let i = 0; i < series.times.length; i++) {
      const v = series.values[i]!;
      if (!Number.isFinite(v)) continue;
      const b = Math.min(this.points - 1, Math.max(0, Math.floor((series.times[i]! - this.start) / this.bucketMs)));
      const prev = values[b];
      if (prev === null || prev === undefined || v * scale > prev) values[b] = v * scale;
    }
  }

  private entry(key: ContainerKey): Outline {
    const id = rowId(key.namespace, this.owners.workloadOf(key.namespace, key.pod), key.container);
    let o = this.byId.get(id);
    if (!o) {
      o = { start: this.start, bucketMs: this.bucketMs, cpu: new Array<number | null>(this.points).fill(null), memory: new Array<number | null>(this.points).fill(null) };
      this.byId.set(id, o);
    }
    return o;
  }
}
