/**
 * The strategies Tailor ships. Other modules (replay baselines, experimental strategies) add theirs
 * here, one line each, so `createStrategyRegistry()` knows every strategy by name.
 */
import { StrategyRegistry } from './strategy-registry.ts';
import type { Strategy } from './types.ts';
import { vpaStrategy } from './vpa-strategy.ts';

/** Fresh instances of the built-in strategies, in display order. */
export function builtinStrategies(): Strategy[] {
  return [vpaStrategy()];
}

/** A registry holding the built-in strategies; callers may register more. */
export function createStrategyRegistry(): StrategyRegistry {
  return new StrategyRegistry(builtinStrategies());
}
