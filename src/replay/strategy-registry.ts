/**
 * The strategies `tailor replay` and the quality bench know, by name: the recommender's built-in
 * strategies (`vpa`, from recommender/builtin-strategies.ts) plus the replay's own (`krr`,
 * `oracle`, `oracle-rules`, `tailor`). Each call builds a fresh strategy, so runs never share state.
 */
import { createStrategyRegistry } from '../recommender/builtin-strategies.ts';
import type { ReplayStrategy } from './replay-strategy.ts';
import { krrStrategy } from '../recommender/krr-strategy.ts';
import { oracleStrategy } from './oracle.ts';
import { tailorStrategy } from '../recommender/tailor/tailor-strategy.ts';
import { ruleOracleStrategy } from './rule-oracle.ts';

const REPLAY_FACTORIES: Record<string, () => ReplayStrategy> = {
  krr: () => krrStrategy(),
  oracle: () => oracleStrategy(),
  'oracle-rules': () => ruleOracleStrategy(),
  tailor: () => tailorStrategy(),
};

/** Names of every replay strategy, in report order: the built-ins first. */
export function replayStrategyNames(): string[] {
  const builtin = createStrategyRegistry().names();
  return [...builtin, ...Object.keys(REPLAY_FACTORIES).filter((name) => !builtin.includes(name))];
}

/** Thrown for a strategy name nobody registered. */
export class UnknownStrategyError extends Error {
  override readonly name = 'UnknownStrategyError';
}

/** A fresh strategy by name. */
export function createReplayStrategy(name: string): ReplayStrategy {
  const own = REPLAY_FACTORIES[name];
  if (own !== undefined) return own();
  const registry = createStrategyRegistry();
  if (registry.has(name)) return registry.get(name);
  throw new UnknownStrategyError(`unknown strategy "${name}" (known: ${replayStrategyNames().join(', ')})`);
}
