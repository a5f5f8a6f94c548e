/**
 * What the replay accepts as a strategy: the recommender's `Strategy`, or a clairvoyant one that
 * is handed the whole series (the oracle) and may skip the updater's step limits.
 */
import type { Strategy, UsageModel } from '../model/types.ts';
import type { ContainerSeries } from './trace.ts';
import type { UpdateRules } from './update-rules.ts';

/** A strategy that needs the future: the engine gives it the container's whole series. */
export interface ClairvoyantStrategy extends Strategy {
  readonly clairvoyant: true;
  /** When true, the simulated updater applies its targets exactly (no step limits). */
  readonly ignoresStepLimits: boolean;
  /** A model for one container that may look at every sample of `series`. */
  newModelFor(series: ContainerSeries, rules: UpdateRules): UsageModel;
}

/** Any strategy the replay can run. */
export type ReplayStrategy = Strategy | ClairvoyantStrategy;

/** True for strategies that need the whole series. */
export function isClairvoyant(strategy: ReplayStrategy): strategy is ClairvoyantStrategy {
  return (strategy as Partial<ClairvoyantStrategy>).clairvoyant === true;
}
