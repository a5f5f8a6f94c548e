/**
 * The strategies `tailor replay` and the benches know, by name: the recommender's registry with
 * its built-in strategies (`vpa`, `tailor`, `tailor-low-churn`: recommender/builtin-strategies.ts)
 * and the replay's baselines registered in it: `krr` (recommender/krr-strategy.ts) and the
 * clairvoyant `oracle` and `oracle-rules`, which only a replay can run. One registry, so a strategy
 * is listed once. Each call builds fresh strategies, so runs never share state.
 */
import { createStrategyRegistry } from '../model/builtin-strategies.ts';
import type { StrategyRegistry } from '../model/strategy-registry.ts';
import type { ReplayStrategy } from './replay-strategy.ts';
import { krrStrategy } from '../model/krr-strategy.ts';
import { oracleStrategy } from './oracle.ts';
import { ruleOracleStrategy } from './rule-oracle.ts';

/** A fresh registry of every replay strategy, in report order: the built-ins first. */
export function replayStrategies(): StrategyRegistry {
  return createStrategyRegistry().register(krrStrategy()).register(oracleStrategy()).register(ruleOracleStrategy());
}

/** Names of every replay strategy, in report order. */
export function replayStrategyNames(): string[] {
  return replayStrategies().names();
}

/** A fresh strategy by name; throws a StrategyRegistryError naming the known ones. */
export function createReplayStrategy(name: string): ReplayStrategy {
  return replayStrategies().get(name);
}
