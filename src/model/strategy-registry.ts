/**
 * Strategies by name, so that the CLI, the replay and the report can pick them with a flag and
 * compare them side by side. Built-in strategies are listed in builtin-strategies.ts.
 */
import type { Strategy } from './types.ts';

/** A strategy name that is unknown or already taken. */
export class StrategyRegistryError extends Error {
  override readonly name = 'StrategyRegistryError';
}

export class StrategyRegistry {
  private readonly byName = new Map<string, Strategy>();

  constructor(strategies: Iterable<Strategy> = []) {
    for (const strategy of strategies) this.register(strategy);
  }

  /** Adds a strategy; its name must be new and match [a-z0-9][a-z0-9-]*. */
  register(strategy: Strategy): this {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(strategy.name))
      throw new StrategyRegistryError(`strategy name ${JSON.stringify(strategy.name)} is invalid: use lowercase letters, digits and dashes`);
    if (this.byName.has(strategy.name)) throw new StrategyRegistryError(`strategy ${JSON.stringify(strategy.name)} is already registered`);
    this.byName.set(strategy.name, strategy);
    return this;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The strategy called `name`; throws naming the known ones if there is none. */
  get(name: string): Strategy {
    const strategy = this.byName.get(name);
    if (!strategy) throw new StrategyRegistryError(`unknown strategy ${JSON.stringify(name)}; known: ${this.names().join(', ') || '(none)'}`);
    return strategy;
  }

  /** Registered names, in registration order. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  /** Registered strategies, in registration order. */
  list(): Strategy[] {
    return [...this.byName.values()];
  }
}
