/**
 * Small pieces the tailor benches share: `--variant name={json}` options and a seeded noise source.
 */
import type { TailorOptions } from '../src/recommender/tailor/options.ts';

/** `tailor` with its defaults, then every `--variant 'name={"option":value}'` of `argv`, in order. */
export function tailorVariants(argv: readonly string[]): Array<[string, Partial<TailorOptions>]> {
  const variants: Array<[string, Partial<TailorOptions>]> = [['tailor', {}]];
  argv.forEach((arg, i) => {
    if (arg !== '--variant') return;
    const text = argv[i + 1] ?? '';
    const eq = text.indexOf('=');
    variants.push([text.slice(0, eq), JSON.parse(text.slice(eq + 1)) as Partial<TailorOptions>]);
  });
  return variants;
}

/** A deterministic noise source in [0, 1) (xorshift32 from `seed`), in steps of 0.001. */
export function seededNoise(seed = 12345): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 1000) / 1000;
  };
}
