/**
 * The `tailor` strategy's research knobs: rules that were built, measured and left off. Neither
 * `tailor` nor `tailor-low-churn` turns one, and no operator should: they are not among the
 * product's {@link TailorOptions}. Only the benches that explore them set them (the `tried:` rows
 * of bench/tailor-ablation.ts, the `--variant 'name={...}'` of bench/tailor-churn.ts and
 * bench/tailor-slack-by-archetype.ts, bench/tailor-identity.ts; all through bench/bench-args.ts),
 * and the tests of the code behind them (decision 0286). Each is off in {@link NO_EXPERIMENTS};
 * docs/tailor-strategy.md and the decision named by each give the figures that kept it off.
 */
import { tailorDefaults, type TailorOptions } from './options.ts';
import { changeRuleOptions, type ChangeRuleOptions } from '../../policy/change-rules.ts';
import { DEFAULT_UPDATER_OPTIONS } from '../../policy/update-thresholds.ts';

const HOUR = 3_600_000;

export interface TailorExperiments {
  /**
   * The daily CPU plan (cpuChangeCostHours) with a change priced in core-hours instead (0: off;
   * added to cpuChangeCostHours' price): a level steps down only for a stretch where it saves this
   * much CPU, so a small container's daily cycle is held flat and a large one's followed (decision
   * 0269: it lands on the same slack-churn frontier).
   */
  cpuChangeCostCoreHours: number;
  /**
   * Other quantiles of the all-hours histograms tried as predictors, scored like the half-lives by
   * the quantile loss at cpuQuantile: a container whose past quantile under- or over-predicts its
   * coming usage (a trend, bursts that pass) gets the level that has predicted it best (empty: off;
   * decision 0250).
   */
  cpuQuantileCandidates: number[];
  /**
   * Models are scored by what they cost, changes included (0: off, the quantile loss alone; see
   * model-change-cost.ts): each time a model's prediction moves past the updater's drift threshold
   * it pays this many core-hours of slack per x2 step the updater needs to follow it. A small
   * container's daily cycle or short daily job is then left to the all-hours model (few changes,
   * little slack in absolute terms); a large one's is still followed (decision 0269).
   */
  cpuModelChangePriceCoreHours: number;
  /** A surge level is held this long after it was last seen (0: it drops as soon as the surge ends). */
  cpuSurgeHoldMs: number;
  /** The follow rule's raise covers the container's largest hour-to-hour peak rise of the last day, up to this fraction (0: off). */
  memoryRiseCap: number;
  /**
   * Coalesce changes (decision 0250): the model mirrors the updater's rules on its own estimates
   * (updater-mirror.ts); when the updater will change the requests anyway, every held target goes
   * to its fresh value and the bounds are pinned to the targets, so both resources move in that one
   * resize (a pending CPU cut rides along a memory raise and the other way round).
   */
  coalesceChanges: boolean;
  /**
   * With `coalesceChanges`: a container that changed this many times in the last 24 h makes no
   * more cuts of its own (CPU's held target, memory's upper bound): its cuts wait for a change
   * that happens anyway (a raise) and ride along. Raises never wait (0: off).
   */
  changeBudgetPerDay: number;
  /** The 7-day peak rule covers only this fraction of a peak older than memorySpikeQuietMs (0: off; decision 0229). */
  memorySpikeDecayFloor: number;
  memorySpikeQuietMs: number;
  /**
   * A refractory period learned per container (0: off; decision 0255, docs/tailor-strategy.md "is
   * there a refractory period?"). A high sample is one at or above `memoryRefractoryHighFraction` x
   * the 7-day peak; high samples less than `memoryRefractoryQuietMs` apart are one episode. Once
   * `memoryRefractoryTrustGaps` gaps between episodes have been seen since the last miss, the 7-day
   * peak rule lets the limit down to the quiet level after an episode and back up before the
   * earliest next one (the shortest gap seen x `memoryRefractorySafety`), one step of the updater
   * (x`maxStepUpFactor`) per cooldown. An episode or an OOM kill sooner than that is a miss: trust
   * starts again.
   */
  memoryRefractoryQuietMs: number;
  memoryRefractoryHighFraction: number;
  memoryRefractoryTrustGaps: number;
  memoryRefractorySafety: number;
  /** Record limit x oomBumpFactor as a peak in the history (remembered like any peak: 7 days). */
  oomIntoHistory: boolean;
}

/** Every research knob off: what `tailor` and `tailor-low-churn` run with. */
export const NO_EXPERIMENTS: Readonly<TailorExperiments> = Object.freeze({
  cpuChangeCostCoreHours: 0,
  cpuQuantileCandidates: Object.freeze([]) as unknown as number[],
  cpuModelChangePriceCoreHours: 0,
  cpuSurgeHoldMs: 0,
  memoryRiseCap: 0,
  coalesceChanges: false,
  changeBudgetPerDay: 0,
  memorySpikeDecayFloor: 0,
  memorySpikeQuietMs: 24 * HOUR,
  memoryRefractoryQuietMs: 0,
  memoryRefractoryHighFraction: 0.5,
  memoryRefractoryTrustGaps: 3,
  memoryRefractorySafety: 1,
  oomIntoHistory: false,
});

/** True when `key` names a research knob (not a product option). */
export function isExperiment(key: string): key is keyof TailorExperiments {
  return Object.hasOwn(NO_EXPERIMENTS, key);
}

/**
 * What the strategy's parts read: the product's options, the research knobs, and the updater's
 * rules as the updater runs them (`updater`: its cooldown, step limits, drift threshold, pressure
 * guard and memory floor, from the options the operator set; decision 0289).
 */
export type TailorSettings = TailorOptions & TailorExperiments & { readonly updater: Readonly<ChangeRuleOptions> };

/**
 * The settings for `options` (over the defaults, {@link tailorDefaults}), `experiments` (over
 * {@link NO_EXPERIMENTS}) and the updater's options (`updater`; default: the updater's defaults, as
 * the replay simulates them). A research knob is taken from `experiments` only: one that reached
 * `options` untyped (parsed JSON) is reset to off.
 */
export function tailorSettings(
  options: Partial<TailorOptions> = {},
  experiments: Partial<TailorExperiments> = {},
  updater: Readonly<ChangeRuleOptions> = DEFAULT_UPDATER_OPTIONS,
): TailorSettings {
  return { ...tailorDefaults(updater), ...options, ...NO_EXPERIMENTS, ...experiments, updater: Object.freeze(changeRuleOptions(updater)) };
}
