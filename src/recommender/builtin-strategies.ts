/**
 * The strategies Tailor ships. Other modules (replay baselines, experimental strategies) add theirs
 * here, one line each, so `createStrategyRegistry()` knows every strategy by name.
 */
import { StrategyRegistry } from './strategy-registry.ts';
import type { Strategy } from './types.ts';
import { vpaStrategy } from './vpa-strategy.ts';
import { tailorStrategy } from './tailor/tailor-strategy.ts';
import { tailorLowChurnStrategy } from './tailor/low-churn.ts';

/**
 * Fresh instances of the built-in strategies, in display order: `vpa` (the upstream recommender),
 * `tailor` (Tailor's own, the least slack the quality suite supports: docs/tailor-strategy.md) and
 * `tailor-low-churn` (tailor within 2x vpa's changes: decision 0276).
 */
export function builtinStrategies(): Strategy[] {
  return [vpaStrategy(), tailorStrategy(), tailorLowChurnStrategy()];
}

/** A registry holding the built-in strategies; callers may register more. */
export function createStrategyRegistry(): StrategyRegistry {
  return new StrategyRegistry(builtinStrategies());
}
