/**
 * The strategies Tailor ships, in one registry (strategy-registry.ts) that every command picks
 * them from by name. The replay registers its baselines in the same registry
 * (replay/replay-strategies.ts); the options declare the names (default-strategy.ts).
 */
import { StrategyRegistry } from './strategy-registry.ts';
import type { Strategy } from './types.ts';
import { vpaStrategy } from './vpa-strategy.ts';
import { tailorStrategy } from './tailor/tailor-strategy.ts';
import { tailorLowChurnStrategy } from './tailor/low-churn.ts';
import type { ChangeRuleOptions } from '../policy/change-rules.ts';
import { DEFAULT_UPDATER_OPTIONS } from '../policy/update-thresholds.ts';

/**
 * Fresh instances of the built-in strategies, in display order: `vpa` (the upstream recommender),
 * `tailor` (Tailor's own, the least slack the quality suite supports: docs/tailor-strategy.md) and
 * `tailor-low-churn` (tailor within 2x vpa's changes: decision 0276). The tailor strategies model
 * the updater with `updater`, its options (default: the updater's defaults).
 */
export function builtinStrategies(updater: Readonly<ChangeRuleOptions> = DEFAULT_UPDATER_OPTIONS): Strategy[] {
  return [vpaStrategy(), tailorStrategy({}, 'tailor', {}, updater), tailorLowChurnStrategy(updater)];
}

/** A registry holding the built-in strategies (for the updater's options `updater`); callers may register more. */
export function createStrategyRegistry(updater: Readonly<ChangeRuleOptions> = DEFAULT_UPDATER_OPTIONS): StrategyRegistry {
  return new StrategyRegistry(builtinStrategies(updater));
}
