/**
 * The strategies Tailor ships. Other modules (replay baselines, experimental strategies) add theirs
 * here, one line each, so `createStrategyRegistry()` knows every strategy by name.
 */
import { StrategyRegistry } from './strategy-registry.ts';
import type { Strategy } from './types.ts';
import { vpaStrategy } from './vpa-strategy.ts';
import { tailorStrategy } from './tailor/tailor-strategy.ts';

/**
 * Fresh instances of the built-in strategies, in display order: `vpa` (the upstream recommender)
 * and `tailor` (Tailor's own, the best the quality suite supports: docs/tailor-strategy.md).
 */
export function builtinStrategies(): Strategy[] {
  return [vpaStrategy(), tailorStrategy()];
}

/** A registry holding the built-in strategies; callers may register more. */
export function createStrategyRegistry(): StrategyRegistry {
  return new StrategyRegistry(builtinStrategies());
}
