/**
 * The usage outline of each workload container for the audit's charts: at most `points` equal
 * buckets ending at the window's end, and per bucket the highest CPU (millicores) and memory
 * (bytes) any pod of the workload used. Peaks, not means, so a short spike still shows against the
 * request. Holds two small arrays per workload container whatever the history's length (a week at
 * one-minute steps is 10,080 samples per pod; the outline is 100 numbers).
 *
 * The buckets fit the data, not only the window: an outline starts fine (a bucket of the window's
 * bucket width / 2^k, never below `minBucketMs`, the samples' step) over the newest part of the
 * window and, when an older sample arrives, merges neighbouring buckets in pairs until it is
 * covered, at most up to the whole window. A peak of two buckets is the larger of their peaks, so
 * the merge is exact and the order the samples arrive in does not matter. 27 minutes of data in
 * an 8-day window thus fill about a third of the chart's width instead of one point at its edge.
 */
import type { ContainerKey, ContainerSeries, OomEvent } from '../../metrics/metrics-source.ts';
import type { UsageSink } from '../../metrics/usage-feed.ts';
import type { OwnerIndex } from '../../metrics/owner-resolution.ts';
import { rowId } from '../report-rows.ts';

/** The charts' default resolution. */
export const OUTLINE_POINTS = 100;

/** How many times finer than the window's bucket an outline may start (2^10: 8 days -> 6.75 s). */
const MAX_HALVINGS = 10;

/** One workload container's outline: bucket `i` covers [start + i*bucketMs, start + (i+1)*bucketMs). */
export interface Outline {
  start: number;
  bucketMs: number;
  /** Peak CPU per bucket (millicores), null where no sample fell. */
  cpu: (number | null)[];
  /** Peak memory per bucket (bytes), null where no sample fell. */
  memory: (number | null)[];
  /** The oldest and the newest sample's time (ms), CPU or memory; undefined before the first sample. */
  firstSampleAt?: number;
  lastSampleAt?: number;
}

interface Entry extends Outline {
  /** How many times the window's bucket width was halved for this outline (0: the whole window). */
  halvings: number;
}

/** A {@link UsageSink} that keeps {@link Outline}s keyed by the report's row id. */
export class UsageOutline implements UsageSink {
  private readonly byId = new Map<string, Entry>();
  private readonly windowBucketMs: number;
  private readonly startHalvings: number;

  /**
   * @param minBucketMs the finest bucket (ms), e.g. the samples' step: finer buckets would leave
   *   gaps between samples (default: the window's bucket, so the outline always covers the window).
   */
  constructor(
    private readonly owners: OwnerIndex,
    private readonly start: number,
    private readonly end: number,
    private readonly points = OUTLINE_POINTS,
    minBucketMs?: number,
  ) {
    if (!(points >= 1) || !(end > start)) throw new RangeError(`an outline needs at least one point and a window (${points} points, ${start}..${end})`);
    this.windowBucketMs = (end - start) / points;
    let halvings = 0;
    if (minBucketMs !== undefined && minBucketMs > 0) while (halvings < MAX_HALVINGS && this.windowBucketMs / 2 ** (halvings + 1) >= minBucketMs) halvings++;
    this.startHalvings = halvings;
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
    const e = this.byId.get(id);
    if (!e) return undefined;
    const { halvings: _halvings, ...outline } = e;
    return outline;
  }

  private add(series: ContainerSeries, resource: 'cpu' | 'memory', scale: number): void {
    const entry = this.entry(series.key);
    for (let i = 0; i < series.times.length; i++) {
      const v = series.values[i]!;
      const t = series.times[i]!;
      if (!Number.isFinite(v)) continue;
      while (t < entry.start && entry.halvings > 0) this.coarsen(entry);
      if (entry.firstSampleAt === undefined || t < entry.firstSampleAt) entry.firstSampleAt = t;
      if (entry.lastSampleAt === undefined || t > entry.lastSampleAt) entry.lastSampleAt = t;
      const values = entry[resource];
      const b = Math.min(this.points - 1, Math.max(0, Math.floor((t - entry.start) / entry.bucketMs)));
      const prev = values[b];
      if (prev === null || prev === undefined || v * scale > prev) values[b] = v * scale;
    }
  }

  private entry(key: ContainerKey): Entry {
    const id = rowId(key.namespace, this.owners.workloadOf(key.namespace, key.pod), key.container);
    let o = this.byId.get(id);
    if (!o) {
      const bucketMs = this.windowBucketMs / 2 ** this.startHalvings;
      o = {
        start: this.startHalvings === 0 ? this.start : this.end - this.points * bucketMs,
        bucketMs,
        cpu: new Array<number | null>(this.points).fill(null),
        memory: new Array<number | null>(this.points).fill(null),
        halvings: this.startHalvings,
      };
      this.byId.set(id, o);
    }
    return o;
  }

  /** Doubles the entry's bucket width, merging its buckets in pairs counted from the end. */
  private coarsen(e: Entry): void {
    const points = this.points;
    e.halvings--;
    e.bucketMs = this.windowBucketMs / 2 ** e.halvings;
    e.start = e.halvings === 0 ? this.start : this.end - points * e.bucketMs;
    for (const r of ['cpu', 'memory'] as const) {
      const merged = new Array<number | null>(points).fill(null);
      e[r].forEach((v, i) => {
        if (v === null) return;
        // Bucket i is the (points-1-i)-th from the end; two of those make one twice as wide.
        const j = points - 1 - Math.floor((points - 1 - i) / 2);
        const prev = merged[j];
        if (prev === null || prev === undefined || v > prev) merged[j] = v;
      });
      e[r] = merged;
    }
  }
}
