/**
 * `tailor-low-churn`: the tailor strategy with every change priced ten times higher and CPU at p91,
 * the point of the churn frontier that keeps the changes within 2x vpa's on the suite and on both
 * real traces, and still beats vpa on CPU slack, CPU shortfall and OOM kills on all three
 * (decision 0276, docs/tailor-strategy.md "A low-churn preset"). `tailor` stays the slack-optimal
 * point (4.6x vpa's changes on the suite).
 *
 * The prices, against tailor's: a CPU cut waits until it has saved 1 core-hour (a cut from 2 to 1
 * core after 1 h, tailor 6 min); a memory cut until it has saved 3 GiB-hours (1 GiB after 3 h,
 * tailor 18 min); a raise covers ahead as long as the excess costs at most 1 core-hour / 3
 * GiB-hours; the daily CPU plan holds a level unless a change saves 2 hours of the day's mean need
 * (a container averaging 500m steps down only for a stretch that saves 1 core-hour).
 * Memory: the follow rule keeps the hour-of-day peak through a dip it has not been tested on, for
 * up to 2 days (a weekend; decision 0297): no OOM kill on the Monday after the first weekend.
 */
import type { Strategy } from '../types.ts';
import type { TailorOptions } from './options.ts';
import { tailorStrategy } from './tailor-strategy.ts';
import type { ChangeRuleOptions } from '../../policy/change-rules.ts';
import { DEFAULT_UPDATER_OPTIONS } from '../../policy/update-thresholds.ts';

/** The options `tailor-low-churn` changes from tailor's defaults. */
export const LOW_CHURN_OPTIONS: Readonly<Partial<TailorOptions>> = Object.freeze({
  cpuQuantile: 0.91,
  cpuChangeCostHours: 2,
  stickyCutCostCoreHours: 1,
  holdPriceCoreHours: 1,
  memoryHoldPriceGiBHours: 3,
  memoryCutPriceGiBHours: 3,
  // A dip the follow rule has not been tested on keeps the hour-of-day peak for 2 days (a weekend): decision 0297.
  memoryFollowDipTrustMs: 2 * 24 * 3_600_000,
});

/** The strategy's name, as `--recommender-strategy`, `tailor replay --strategies` and the benches spell it. */
export const LOW_CHURN_STRATEGY_NAME = 'tailor-low-churn';

/** A fresh `tailor-low-churn` strategy (its own models, as every strategy) for the updater's options `updater`. */
export function tailorLowChurnStrategy(updater: Readonly<ChangeRuleOptions> = DEFAULT_UPDATER_OPTIONS): Strategy {
  return {
    ...tailorStrategy(LOW_CHURN_OPTIONS, LOW_CHURN_STRATEGY_NAME, {}, updater),
    description:
      "Tailor with changes priced 10x higher and CPU at p91: at most 2x vpa's changes, still less slack, shortfall and OOM kills than vpa (decision 0276)",
  };
}
