/**
 * A seeded random source for the workload generator (xoroshiro128+ from pure-rand): the same seed
 * always gives the same numbers, on every machine.
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/** Random draws used by the archetypes. */
export class Random {
  private readonly rng: RandomGenerator;
  private spare = NaN;

  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed | 0);
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    return uniformFloat64(this.rng);
  }

  /** Uniform in [a, b). */
  between(a: number, b: number): number {
    return a + (b - a) * this.uniform();
  }

  /** Log-uniform in [a, b): as likely to fall in [1, 2) as in [10, 20). */
  logBetween(a: number, b: number): number {
    return a * Math.pow(b / a, this.uniform());
  }

  /** Integer in [a, b]. */
  int(a: number, b: number): number {
    return a + Math.floor(this.uniform() * (b - a + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.uniform() < p;
  }

  /** Standard normal (Box-Muller, one spare kept). */
  normal(): number {
    if (!Number.isNaN(this.spare)) {
      const s = this.spare;
      this.spare = NaN;
      return s;
    }
    const u = 1 - this.uniform();
    const v = this.uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** One of `items`. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.uniform() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }
}

/** A seed for item `index` of a family seeded by `seed` (a 32-bit integer hash, FNV-1a style). */
export function childSeed(seed: number, index: number): number {
  let h = 0x811c9dc5 ^ (seed | 0);
  h = Math.imul(h ^ (index & 0xffff), 0x01000193);
  h = Math.imul(h ^ (index >>> 16), 0x01000193);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) | 0;
}
