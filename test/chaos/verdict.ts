/**
 * The chaos command's arguments and its one-line verdict (issue 31 item 6): pure, so npm test holds
 * them to the names the issue gives (`--seed N --minutes M`; `chaos: seed N, M min: R resizes,
 * E evictions, F faults, V violations`).
 */
import { parseArgs } from 'node:util';

/** The run's settings. */
export interface ChaosArgs {
  readonly seed: number;
  readonly minutes: number;
  /** Where the run's record goes (watch, audit slice, faults, events). */
  readonly out: string | undefined;
  /** A deliberately broken Tailor (variants.ts), or none. */
  readonly variant: string | undefined;
}

/** The longest run the lane allows (the 45 minutes). */
export const MAX_MINUTES = 45;
/** The shortest run with a fault in it: the quiet start and end (5 min) and one 45 s slot. */
export const MIN_MINUTES = 6;

const USAGE = 'usage: npm run test:chaos -- --seed N --minutes M [--out DIR] [--variant NAME]';

/** `--seed N --minutes M [--out DIR] [--variant NAME]` (NAME one of `variants`); every problem at once in the error. */
export function parseChaosArgs(argv: readonly string[], variants: readonly string[] = []): ChaosArgs {
  let values: { seed?: string; minutes?: string; out?: string; variant?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { seed: { type: 'string' }, minutes: { type: 'string' }, out: { type: 'string' }, variant: { type: 'string' } },
    }));
  } catch (error) {
    throw new Error(`${(error as Error).message}; ${USAGE}`, { cause: error });
  }
  const problems: string[] = [];
  const seed = Number(values.seed);
  if (values.seed === undefined || !Number.isSafeInteger(seed) || seed < 0)
    problems.push(`--seed must be a whole number ≥ 0 (got ${values.seed ?? 'nothing'})`);
  const minutes = Number(values.minutes);
  if (values.minutes === undefined || !Number.isInteger(minutes) || minutes < MIN_MINUTES || minutes > MAX_MINUTES) {
    problems.push(`--minutes must be a whole number from ${MIN_MINUTES} to ${MAX_MINUTES} (got ${values.minutes ?? 'nothing'})`);
  }
  if (values.variant !== undefined && !variants.includes(values.variant))
    problems.push(`--variant must be one of ${variants.join(', ')} (got ${values.variant})`);
  if (problems.length > 0) throw new Error(`${problems.join('; ')}; ${USAGE}`);
  return { seed, minutes, out: values.out, variant: values.variant };
}

/** The run's counts. */
export interface ChaosCounts {
  readonly resizes: number;
  readonly evictions: number;
  readonly faults: number;
  readonly violations: number;
}

/** The one line a run ends with. */
export function verdictLine(args: Pick<ChaosArgs, 'seed' | 'minutes'>, c: ChaosCounts): string {
  return `chaos: seed ${args.seed}, ${args.minutes} min: ${c.resizes} resizes, ${c.evictions} evictions, ${c.faults} faults, ${c.violations} violations`;
}
