/**
 * How much risk a recommendation takes on the history it was made from, in the replay's terms
 * (bench:quality, src/replay/quality-tally.ts), so a report row says how far to trust it:
 *  - CPU shortfall: the share of the CPU used that a request equal to the target would not have
 *    covered, sum(max(usage - target, 0)) / sum(usage) x 100;
 *  - memory: the days whose peak working set was above the target, i.e. the days a container
 *    whose memory limit equals its request (the replay's model, decision 0052) would have been
 *    OOM-killed at least once.
 * Measured in-sample (the target was made from these very samples), so these are floors on the
 * risk ahead, not forecasts: a row whose own history already shows shortfall or days over target
 * deserves a look before its target is applied.
 *
 * The target is known only after the history is read, and the report keeps nothing per sample
 * (workload-usage.ts), so CPU usage goes into a sparse histogram with buckets 5% wide that keeps
 * each bucket's count and sum: buckets above the target count exactly, the one bucket that holds
 * the target counts at its mean (so the error is within that bucket's share). Worked number: samples 100m,
 * 100m, 300m and a target of 200m: shortfall = (300 - 200) / 500 = 20%. Memory keeps one peak per
 * UTC day (8 numbers for 8 days).
 */

/** Bucket growth: each CPU bucket is 5% wider than the one below. */
const BUCKET_RATIO = 1.05;
/** The lower edge of the first bucket, millicores; smaller samples count in it. */
const SMALLEST_MILLICORES = 0.1;
const DAY_MS = 86_400_000;
const LOG_RATIO = Math.log(BUCKET_RATIO);

/** The risk figures of one row against its target. */
export interface RowRisk {
  /** CPU shortfall at the target, percent of the CPU used; null without CPU usage or target. */
  cpuShortfallPct: number | null;
  /** UTC days with memory samples. */
  memoryDays: number;
  /** Of those, the days whose peak was above the memory target; null without a target. */
  memoryDaysOverTarget: number | null;
}

/** The figures as reports print them: the CPU shortfall to one decimal. */
export function roundedRisk(risk: RowRisk): RowRisk {
  return { ...risk, cpuShortfallPct: risk.cpuShortfallPct === null ? null : Math.round(risk.cpuShortfallPct * 10) / 10 };
}

/** A compact record of one workload container's usage, enough to score a target against it. */
export class UsageRisk {
  /** Bucket index -> [samples, sum of their millicores]. */
  private readonly cpuBuckets = new Map<number, [number, number]>();
  private cpuTotal = 0;
  private readonly dayPeaks = new Map<number, number>();

  /** One CPU sample, cores (as the metrics source gives them). */
  addCpu(cores: number): void {
    if (!(cores >= 0)) return;
    const millicores = cores * 1000;
    this.cpuTotal += millicores;
    const i = millicores <= SMALLEST_MILLICORES ? 0 : Math.floor(Math.log(millicores / SMALLEST_MILLICORES) / LOG_RATIO);
    const bucket = this.cpuBuckets.get(i);
    if (bucket) {
      bucket[0] += 1;
      bucket[1] += millicores;
    } else this.cpuBuckets.set(i, [1, millicores]);
  }

  /** One memory sample, bytes, at `at` (ms). */
  addMemory(bytes: number, at: number): void {
    if (!(bytes >= 0)) return;
    const day = Math.floor(at / DAY_MS);
    if (bytes > (this.dayPeaks.get(day) ?? -1)) this.dayPeaks.set(day, bytes);
  }

  /** The risk of `target` (CPU millicores, memory bytes) on this history. */
  against(target: { cpu?: number; memory?: number }): RowRisk {
    return {
      cpuShortfallPct: target.cpu === undefined || this.cpuTotal <= 0 ? null : (this.cpuShortfall(target.cpu) / this.cpuTotal) * 100,
      memoryDays: this.dayPeaks.size,
      memoryDaysOverTarget: target.memory === undefined ? null : [...this.dayPeaks.values()].filter((peak) => peak > target.memory!).length,
    };
  }

  private cpuShortfall(target: number): number {
    let short = 0;
    for (const [count, sum] of this.cpuBuckets.values()) short += Math.max(sum - count * target, 0);
    return short;
  }
}
