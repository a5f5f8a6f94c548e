/**
 * The strategies `tailor replay` and the quality bench know, by name. Each call builds a fresh
 * strategy, so runs never share state.
 */
import type { ReplayStrategy } from './replay-strategy.ts';
import { krrStrategy } from './strategies/krr.ts';
import { oracleStrategy } from './strategies/oracle.ts';

const FACTORIES: Record<string, () => ReplayStrategy> = {
  krr: () => krrStrategy(),
  oracle: () => oracleStrategy(),
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
