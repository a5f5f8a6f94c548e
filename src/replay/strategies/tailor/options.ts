/**
 * The settings of the `tailor` strategy, with the defaults the quality bench justifies
 * (docs/tailor-strategy.md gives the figures behind each).
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface TailorOptions {
  /** CPU quantile aimed at, without a multiplicative margin (newsvendor: one quantile for all). */
  cpuQuantile: number;
  /** Use the hour-of-day CPU model when it predicts better (off: all-hours model only). */
  cpuSeasonal: boolean;
  /** Raise each hour so the step limit can reach the coming hours (off: the raw hourly quantile). */
  cpuReachFloor: boolean;
  /** Raise CPU at once on a sustained increase (see surgeWindowMs). */
  cpuSurge: boolean;
  /** Half-life of the hour-of-day CPU histograms. */
  seasonalHalfLifeMs: number;
  /** Half-life of the all-hours CPU histogram. */
  flatHalfLifeMs: number;
  /** Time constant of the running quantile loss that picks the better CPU model. */
  lossTimeConstantMs: number;
  /** How far ahead a CPU target must hold (the updater's cooldown). */
  horizonMs: number;
  /** Window of the recent-level check that catches sustained increases. */
  surgeWindowMs: number;
  /** CPU bounds around the target: the updater acts outside [target x lower, target x upper]. */
  cpuLowerFactor: number;
  cpuUpperFactor: number;
  /** Memory: how long hourly peaks are remembered. */
  memoryHistoryMs: number;
  /**
   * Memory by hour of day: cover the same hours on earlier days plus the last `memoryRecentMs`,
   * instead of the whole history's peak. The rule is checked hour by hour once
   * `memorySeasonalAfterMs` of history exist (yesterday's same hour is known)...
   */
  memorySeasonal: boolean;
  memoryRecentMs: number;
  /** The follow rule: cover only the peak of the last `memoryFollowMs` (leaks, restarts, steps down). */
  memoryFollowMs: number;
  /** The follow rule needs this long without a miss (a week: a weekend dip is not a step down). */
  memoryFollowTrustMs: number;
  memorySeasonalAfterMs: number;
  /**
   * ...and used only after `memorySeasonalTrustMs` of checks in which no hour went above the
   * limit the rule would have set for it (a spike it could not have seen coming).
   */
  memorySeasonalTrustMs: number;
  /** Memory margin above the remembered peak. */
  memoryMargin: number;
  /** Memory bounds around the target. */
  memoryLowerFactor: number;
  memoryUpperFactor: number;
  /** No memory decrease before this much history (a daily job or peak may not have shown yet). */
  memoryLearnMs: number;
  /** After an OOM kill, memory at least limit x this factor... */
  oomBumpFactor: number;
  /** ...for this long (the real peak is then in the history). */
  oomHoldMs: number;
  /**
   * The updater's largest increase per change (x2): an hour's CPU is never set below what the
   * coming hours need divided by this per hour ahead, so each rise is one change away.
   */
  maxStepUp: number;
  /** Floors: never recommend less. */
  minCpuMillicores: number;
  minMemoryBytes: number;
}

export const TAILOR_DEFAULTS: Readonly<TailorOptions> = Object.freeze({
  cpuQuantile: 0.9,
  cpuSeasonal: true,
  cpuReachFloor: true,
  cpuSurge: true,
  seasonalHalfLifeMs: 3 * DAY,
  flatHalfLifeMs: 12 * HOUR,
  lossTimeConstantMs: 2 * DAY,
  horizonMs: 15 * 60_000,
  surgeWindowMs: 30 * 60_000,
  cpuLowerFactor: 0.8,
  cpuUpperFactor: 1.25,
  memoryHistoryMs: 7 * DAY,
  memorySeasonal: true,
  memoryRecentMs: 3 * HOUR,
  memoryFollowMs: 3 * HOUR,
  memoryFollowTrustMs: 7 * DAY,
  memorySeasonalAfterMs: DAY,
  memorySeasonalTrustMs: 5 * DAY,
  memoryMargin: 0.12,
  memoryLowerFactor: 0.95,
  memoryUpperFactor: 1.3,
  memoryLearnMs: DAY,
  oomBumpFactor: 1.5,
  oomHoldMs: DAY,
  maxStepUp: 2,
  minCpuMillicores: 5,
  minMemoryBytes: 16 * 1024 ** 2,
});
