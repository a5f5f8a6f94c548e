/**
 * The settings of the `tailor` strategy, with the defaults the quality bench justifies
 * (docs/tailor-strategy.md gives the figures behind each). What the strategy assumes of the updater
 * (its cooldown, step limit, drift threshold and pressure guard) is not among them: the parts read
 * the updater's own options (`TailorSettings.updater`, experiments.ts).
 */
import { DEFAULT_UPDATER_OPTIONS, type UpdaterOptions } from '../../policy/update-thresholds.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface TailorOptions {
  /** CPU quantile aimed at, without a multiplicative margin (newsvendor: one quantile for all). */
  cpuQuantile: number;
  /** Use the hour-of-day CPU model when it predicts better (off: all-hours model only). */
  cpuSeasonal: boolean;
  /**
   * The hour-of-day model sets the target only when its running loss is at least this fraction
   * below the all-hours model's: it moves the request every few hours, so a marginal win does not
   * pay for the changes (0: the lower loss wins).
   */
  cpuSeasonalMinGain: number;
  /**
   * The hour-of-day model's levels pay for their changes: the day is cut into constant stretches,
   * one change costing this many hours of the day's mean need in slack (0: every hour its own
   * quantile; see daily-plan.ts).
   */
  cpuChangeCostHours: number;
  /** Raise each hour so the step limit can reach the coming hours (off: the raw hourly quantile). */
  cpuReachFloor: boolean;
  /** Raise CPU at once on a sustained increase (see surgeWindowMs). */
  cpuSurge: boolean;
  /** Half-life of the hour-of-day CPU histograms. */
  seasonalHalfLifeMs: number;
  /** Half-life of the all-hours CPU histogram. */
  flatHalfLifeMs: number;
  /**
   * Other half-lives tried for the all-hours histogram, each in its own histogram: one is used
   * instead when its running quantile loss is lower by cpuSeasonalMinGain (per container: bursts
   * that pass within hours are forgotten within hours). Empty: the one half-life.
   */
  flatAltHalfLivesMs: number[];
  /** Time constant of the running quantile loss that picks the better CPU model. */
  lossTimeConstantMs: number;
  /** Window of the recent-level check that catches sustained increases. */
  surgeWindowMs: number;
  /**
   * A change should last this long: CPU goes to the largest need of the next `cpuHoldMs` (hour-of-day
   * model), memory covers the next `memoryHoldMs` (hour-of-day peaks ahead, a leak's growth). The
   * request stays while it lies between the need of now (x lower factor) and the held target (x
   * upper factor): fewer, larger changes. The updater's cooldown for both: every change follows the need.
   */
  cpuHoldMs: number;
  memoryHoldMs: number;
  /**
   * Priced holds (decisions 0251, 0269; 0: off, cpuHoldMs / memoryHoldMs for all): a change covers
   * the longest of 15 min, 1, 2, 4, 8 h (CPU) or 1, 2, 4, 8, 16 h (memory) whose excess over the
   * need of now, (covered - need) x horizon / 2, costs at most this many core-hours / GiB-hours.
   * CPU at 0.1 core-hour, the price of a cut (stickyCutCostCoreHours); memory at 0.3 GiB-hour.
   */
  holdPriceCoreHours: number;
  memoryHoldPriceGiBHours: number;
  /**
   * Growth cover under the hour-of-day and 7-day rules (0: off; the follow rule always adds its
   * last 3 hours' rise): when the last `memoryTrendHours` hourly peaks pass a Mann-Kendall test
   * for a rise at level `memoryTrendLevel` (rising-trend.ts), a change covers its hold (priced, or
   * `memoryHoldMs`) of growth at Sen's slope above the level of now (decision 0269). A leak before the follow rule is trusted (and
   * after each restart) is then raised once per hold instead of by a few MiB every cooldown; a
   * steady container's noisy peaks pass no test and get no cover.
   */
  memoryTrendHours: number;
  memoryTrendLevel: number;
  /** CPU bounds: the updater acts outside [need x lower, held target x upper]. */
  cpuLowerFactor: number;
  cpuUpperFactor: number;
  /**
   * The published target stays put while the fresh one's bounds still contain it (it moves only
   * when it leaves the band [lower, upper]): the updater's drift rule then does not chase a target
   * that wobbles inside the band.
   */
  stickyTargets: boolean;
  /**
   * The band the held target may stay in: [CPU need x a, CPU target x b], [memory need x c, memory
   * target x d]; c = Infinity: memory is not held by this band (memoryCutPriceGiBHours holds it
   * instead, with a price in GiB-hours). Default [1 - the updater's drift threshold, 1, Infinity, 1].
   */
  stickyBand: [number, number, number, number];
  /**
   * CPU: a cut of the held target needs this many core-hours of excess first, the price of one
   * change (0: off). 0.1: a cut from 2 to 1 core comes after 6 min, from 40m to 30m after 10 h.
   */
  stickyCutCostCoreHours: number;
  /**
   * Memory: the published target is held and a cut waits until the excess (held - fresh target),
   * summed over time, reaches this many GiB-hours, the price of one change (0: off; decision 0273).
   * 0.3, the memory hold's price: a cut of 1 GiB comes after 18 min, one of 30 MiB after 10 h.
   * Raises (the need above the held value) come at once, so a held target is never below the need.
   */
  memoryCutPriceGiBHours: number;
  /**
   * When one held target moves (CPU or memory), the other's pending cut goes with it: the updater
   * changes the requests then anyway, so the cut costs no change of its own (decision 0273).
   */
  cutsRideAlong: boolean;
  /** Memory: how long hourly peaks are remembered. */
  memoryHistoryMs: number;
  /**
   * Memory by hour of day: cover the same hours on earlier days plus the last `memoryRecentMs`,
   * instead of the whole history's peak. The rule is checked hour by hour once
   * `memorySeasonalAfterMs` of history exist (yesterday's same hour is known)...
   */
  memorySeasonal: boolean;
  memoryRecentMs: number;
  /** The follow rule: cover only the hour under way and the last `memoryFollowMs` (leaks, restarts, steps down). */
  memoryFollowMs: number;
  /** The follow rule needs this long of checks without a miss (2 days; a weekly dip is its known weakness, decision 0141). */
  memoryFollowTrustMs: number;
  /**
   * A dip the follow rule has not been tested on (decision 0297; 0: off). The rule is *in a dip*
   * for an hour when its limit lies further below the hour-of-day rule's than the margin: a return
   * to the level that rule expects would pass it, and a return at once (a Monday after a weekend)
   * is faster than the pressure guard. In a dip, the follow rule covers at least the hour-of-day
   * rule's peak (without the margin: a return to it sits under the limit, where the guard raises
   * it) until the rule has been in a dip this long without a miss, or a dip has ended without one
   * (the container came back up gradually). A miss starts the count again. Worked number: weekdays
   * at 1,000 MiB, a weekend at 700: the limit stays at 1,000 MiB over the weekend's 47 hours of
   * dip, where the follow rule alone would set 784 and Monday's return would be an OOM kill.
   */
  memoryFollowDipTrustMs: number;
  memorySeasonalAfterMs: number;
  /**
   * ...and used only after `memorySeasonalTrustMs` of checks without a miss (a jump it could not
   * have seen coming, see `memoryCheckPastGuard`).
   */
  memorySeasonalTrustMs: number;
  /**
   * How the hour-of-day and follow rules are checked: true = a miss is a sample that would have
   * gone past the rule's limit faster than the updater's pressure guard (below) raises it (an OOM
   * kill that would really have happened); false = any hour whose peak went above the rule's limit.
   */
  memoryCheckPastGuard: boolean;
  /** With past-guard checks: a rule that missed is used again only this long after its last miss. */
  memoryRetrustMs: number;
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
  /** Floors: never recommend less. */
  minCpuMillicores: number;
  minMemoryBytes: number;
}

/**
 * The defaults, the band of the held CPU target drawn from `updater`'s drift threshold: a need up to
 * that threshold above the held value waits (a smaller move would not be made for its own sake);
 * memory is not held by a band (Infinity) but by its cut price.
 */
export function tailorDefaults(updater: Pick<UpdaterOptions, 'driftThreshold'>): TailorOptions {
  return { ...DEFAULTS_BUT_THE_BAND, stickyBand: [1 - updater.driftThreshold, 1, Infinity, 1] };
}

const DEFAULTS_BUT_THE_BAND: Readonly<Omit<TailorOptions, 'stickyBand'>> = Object.freeze({
  cpuQuantile: 0.902,
  cpuSeasonal: true,
  cpuSeasonalMinGain: 0.2,
  cpuChangeCostHours: 0,
  cpuReachFloor: true,
  cpuSurge: true,
  seasonalHalfLifeMs: 3 * DAY,
  flatHalfLifeMs: 12 * HOUR,
  flatAltHalfLivesMs: Object.freeze([3 * HOUR]) as number[],
  lossTimeConstantMs: 2 * DAY,
  surgeWindowMs: 30 * 60_000,
  cpuHoldMs: 15 * 60_000,
  memoryHoldMs: 2 * HOUR,
  memoryTrendHours: 8,
  memoryTrendLevel: 0.05,
  holdPriceCoreHours: 0.1,
  memoryHoldPriceGiBHours: 0.3,
  cpuLowerFactor: 0.8,
  cpuUpperFactor: 1.25,
  stickyTargets: true,
  stickyCutCostCoreHours: 0.1,
  // One change is worth 0.3 GiB-hour, as for the memory hold (decision 0273).
  memoryCutPriceGiBHours: 0.3,
  cutsRideAlong: true,
  memoryHistoryMs: 7 * DAY,
  memorySeasonal: true,
  memoryRecentMs: HOUR,
  memoryFollowMs: HOUR,
  memoryFollowTrustMs: 2 * DAY,
  // Off for tailor (the slack-optimal point); tailor-low-churn, the default, sets 2 days (decision 0297).
  memoryFollowDipTrustMs: 0,
  memorySeasonalAfterMs: DAY,
  memorySeasonalTrustMs: DAY,
  memoryCheckPastGuard: true,
  memoryRetrustMs: 8 * DAY,
  memoryMargin: 0.12,
  memoryLowerFactor: 1,
  memoryUpperFactor: 1.3,
  memoryLearnMs: 6 * HOUR,
  oomBumpFactor: 1.5,
  oomHoldMs: 12 * HOUR,
  minCpuMillicores: 25,
  minMemoryBytes: 16 * 1024 ** 2,
});

/** The defaults under the updater's default options (the replay's, the benches'). */
export const TAILOR_DEFAULTS: Readonly<TailorOptions> = Object.freeze(tailorDefaults(DEFAULT_UPDATER_OPTIONS));
