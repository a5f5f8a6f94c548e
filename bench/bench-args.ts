/**
 * Small pieces the tailor benches share: the variants of `tailor` they replay (`--variant
 * name={json}`: product options and research knobs, decision 0286) and a seeded noise source.
 */
import { TAILOR_DEFAULTS, type TailorOptions } from '../src/model/tailor/options.ts';
import { isExperiment, type TailorExperiments } from '../src/model/tailor/experiments.ts';
import { tailorStrategy } from '../src/model/tailor/tailor-strategy.ts';
import type { Strategy } from '../src/model/types.ts';

/**
 * A variant of `tailor`: any of its product options and any research knob (the rules built,
 * measured and left off, src/model/tailor/experiments.ts), in one object as `--variant` gives it.
 */
export type TailorVariant = Partial<TailorOptions & TailorExperiments>;

/** `tailor` with its defaults, then every `--variant 'name={"option":value}'` of `argv`, in order. */
export function tailorVariants(argv: readonly string[]): Array<[string, TailorVariant]> {
  const variants: Array<[string, TailorVariant]> = [['tailor', {}]];
  argv.forEach((arg, i) => {
    if (arg !== '--variant') return;
    const text = argv[i + 1] ?? '';
    const eq = text.indexOf('=');
    variants.push([text.slice(0, eq), JSON.parse(text.slice(eq + 1)) as TailorVariant]);
  });
  return variants;
}

/**
 * The `tailor` strategy with `variant`'s product options and research knobs, named `name`. A key
 * that is neither (a typo, or a knob since removed) stops the bench instead of being ignored.
 */
export function tailorVariantStrategy(variant: TailorVariant, name = 'tailor'): Strategy {
  const options: Record<string, unknown> = {};
  const experiments: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(variant)) {
    if (isExperiment(key)) experiments[key] = value;
    else if (Object.hasOwn(TAILOR_DEFAULTS, key)) options[key] = value;
    else throw new Error(`variant "${name}": "${key}" is neither a tailor option nor a research knob`);
  }
  return tailorStrategy(options as Partial<TailorOptions>, name, experiments as Partial<TailorExperiments>);
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
