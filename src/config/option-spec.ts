/**
 * The shape of the configuration table: one row per option, naming its flag, its environment
 * variable, its type, default, description and checks. Commander options, environment parsing,
 * start-up validation and docs/configuration.md are all derived from the rows, so an option exists
 * in exactly one place. Components add options by defining their own rows and merging them with
 * {@link mergeOptionTables}.
 */
import type { OptionType } from './option-types.ts';

/** One option. */
export interface OptionSpec<T> {
  /** Flag without dashes: `prometheus-url` -> `--prometheus-url`. */
  flag: string;
  /** Environment variable: `TAILOR_PROMETHEUS_URL`. */
  env: string;
  type: OptionType<T>;
  /** Used when neither the flag nor the variable is given. */
  default?: T;
  /** Text for the reference's default column when the default is computed at start-up. */
  defaultText?: string;
  description: string;
  /** Heading in `--help` and in the reference. */
  group: string;
  /** Never echo the value (tokens, passwords). */
  secret?: boolean;
  /** Extra check of a parsed value; returns what is wrong, or undefined. */
  check?: (value: T) => string | undefined;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOptionSpec = OptionSpec<any>;

/** A table of options keyed by their config property name (`prometheusUrl`). */
export type OptionTable = Record<string, AnyOptionSpec>;

/** The value type of a row. */
export type ValueOf<S> = S extends OptionSpec<infer V> ? V : never;

/** The typed configuration a table resolves to: rows with a default are always set. */
export type ConfigOf<T extends OptionTable> = {
  readonly [K in keyof T]: T[K] extends { default: unknown } ? ValueOf<T[K]> : ValueOf<T[K]> | undefined;
};

/** Merges option tables, refusing a key, flag or environment variable defined twice. */
export function mergeOptionTables<A extends OptionTable, B extends OptionTable>(a: A, b: B): A & B;
export function mergeOptionTables<A extends OptionTable, B extends OptionTable, C extends OptionTable>(a: A, b: B, c: C): A & B & C;
export function mergeOptionTables<A extends OptionTable, B extends OptionTable, C extends OptionTable, D extends OptionTable>(
  a: A,
  b: B,
  c: C,
  d: D,
): A & B & C & D;
export function mergeOptionTables(...tables: OptionTable[]): OptionTable;
export function mergeOptionTables(...tables: OptionTable[]): OptionTable {
  const out: OptionTable = {};
  const flags = new Map<string, string>();
  const envs = new Map<string, string>();
  for (const table of tables) {
    for (const [key, spec] of Object.entries(table)) {
      if (key in out) throw new Error(`configuration option ${key} is defined twice`);
      const flagOwner = flags.get(spec.flag);
      if (flagOwner) throw new Error(`--${spec.flag} is used by both ${flagOwner} and ${key}`);
      const envOwner = envs.get(spec.env);
      if (envOwner) throw new Error(`${spec.env} is used by both ${envOwner} and ${key}`);
      flags.set(spec.flag, key);
      envs.set(spec.env, key);
      out[key] = spec;
    }
  }
  return out;
}

/** A check across several options; `options` are the keys it concerns (named in the error). */
export interface ConfigRule<C> {
  options: readonly (keyof C & string)[];
  check: (config: C) => string | undefined;
}
