/**
 * The strategies `tailor replay` and the quality bench know, by name: the recommender's own
 * (`vpa`, from builtin-strategies) plus the replay's baselines. Each call builds a fresh strategy,
 * so runs never share state.
 */
import { vpaStrategy } from '../recommender/vpa-strategy.ts';
import type { ReplayStrategy } from './replay-strategy.ts';
import { krrStrategy } from './strategies/krr.ts';
import { oracleStrategy } from './strategies/oracle.ts';
import { tailorStrategy } from './strategies/tailor/tailor-strategy.ts';

const FACTORIES: Record<string, () => ReplayStrategy> = {
  vpa: () => vpaStrategy(),
  krr: () => krrStrategy(),
  oracle: () => oracleStrategy(),
  tailor: () => tailorStrategy(),
};

/** Names of every replay strategy, in report order. */
export function replayStrategyNames(): string[] {
  return Object.keys(FACTORIES);
}

/** Thrown for a strategy name nobody registered. */
export class UnknownStrategyError extends Error {
  override readonly name = 'UnknownStrategyError';
}

/** A fresh strategy by name. */
export function createReplayStrategy(name: string): ReplayStrategy {
  const factory = FACTORIES[name];
  if (factory === undefined) {
    throw new UnknownStrategyError(`unknown strategy "${name}" (known: ${replayStrategyNames().join(', ')})`);
  }
  return factory();
}
