/**
 * Start-up resolution of a configuration table: for each option, the flag if given, else the
 * environment variable if set and not empty, else the default. Every problem is collected (not
 * just the first), and each error names the flag or variable it came from, e.g.
 * `--interval=5x: invalid duration "5x": use e.g. 90s, 30m, 12h, 8d, 1w` or
 * `TAILOR_METRICS_PORT=70000: out of range 0-65535`. Pure: the command line values and the
 * environment are arguments.
 */
import type { ConfigOf, ConfigRule, OptionSpec, OptionTable } from './option-spec.ts';

/** Where a value came from. */
export type ValueSource = 'flag' | 'env' | 'default' | 'unset';

/** Values from commander: a string, a list of strings (repeatable flags) or a boolean (switches). */
export type CommandLineValues = Readonly<Record<string, string | readonly string[] | boolean | undefined>>;

/** The environment (process.env at the composition root, a literal in tests). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** One configuration problem. */
export class ConfigError extends Error {
  constructor(
    message: string,
    /** The option keys involved. */
    readonly options: readonly string[],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Every problem at once; its message lists them one per line. */
export class InvalidConfigurationError extends Error {
  constructor(readonly errors: readonly ConfigError[]) {
    super(`invalid configuration:\n${errors.map((e) => `  ${e.message}`).join('\n')}`);
    this.name = 'InvalidConfigurationError';
  }
}

/** A resolved configuration and where each value came from. */
export interface Resolved<T extends OptionTable> {
  config: ConfigOf<T>;
  sources: Record<keyof T, ValueSource>;
}

/** Resolves and validates; throws {@link InvalidConfigurationError} listing every problem. */
export function resolveConfig<T extends OptionTable>(
  table: T,
  cli: CommandLineValues,
  env: Environment,
  rules: readonly ConfigRule<ConfigOf<T>>[] = [],
): Resolved<T> {
  const errors: ConfigError[] = [];
  const config: Record<string, unknown> = {};
  const sources: Record<string, ValueSource> = {};
  for (const [key, spec] of Object.entries(table)) {
    const resolved = resolveOne(key, spec, cli[key], env[spec.env]);
    if (resolved.error) errors.push(resolved.error);
    config[key] = resolved.value;
    sources[key] = resolved.source;
  }
  const broken = new Set(errors.flatMap((e) => e.options));
  for (const rule of rules) {
    const problem = checkRule(rule, config as ConfigOf<T>, broken);
    if (problem !== undefined) errors.push(new ConfigError(`${rule.options.map((k) => describe(table, k)).join(', ')}: ${problem}`, rule.options));
  }
  if (errors.length > 0) throw new InvalidConfigurationError(errors);
  return { config: config as ConfigOf<T>, sources: sources as Record<keyof T, ValueSource> };
}

/**
 * A rule's problem, if any. Rules run even when single options failed, so that every problem is
 * reported in one go; but a rule that reads an option which failed to parse says nothing (its
 * answer would rest on a missing value): the options it reads are recorded as it runs.
 */
function checkRule<C extends object>(rule: ConfigRule<C>, config: C, broken: ReadonlySet<string>): string | undefined {
  if (broken.size === 0) return rule.check(config);
  let readBroken = false;
  const watched = new Proxy(config, {
    get(target, key, receiver) {
      if (typeof key === 'string' && broken.has(key)) readBroken = true;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  try {
    const problem = rule.check(watched);
    return readBroken ? undefined : problem;
  } catch (err) {
    if (readBroken) return undefined;
    throw err;
  }
}

/** `--flag` (env `TAILOR_FLAG`), for messages about an option. */
export function describe(table: OptionTable, key: string): string {
  const spec = table[key];
  return spec ? `--${spec.flag} (${spec.env})` : key;
}

function resolveOne(
  key: string,
  spec: OptionSpec<unknown>,
  fromCli: CommandLineValues[string],
  fromEnv: string | undefined,
): { value: unknown; source: ValueSource; error?: ConfigError } {
  if (fromCli !== undefined && !(Array.isArray(fromCli) && fromCli.length === 0)) {
    const texts: string[] = typeof fromCli === 'boolean' ? [String(fromCli)] : typeof fromCli === 'string' ? [fromCli] : [...(fromCli as readonly string[])];
    return parseAndCheck(key, spec, texts, `--${spec.flag}`, 'flag');
  }
  if (fromEnv !== undefined && fromEnv.trim() !== '') return parseAndCheck(key, spec, [fromEnv], spec.env, 'env');
  if (spec.default !== undefined) return { value: spec.default, source: 'default' };
  return { value: undefined, source: 'unset' };
}

function parseAndCheck(
  key: string,
  spec: OptionSpec<unknown>,
  texts: string[],
  origin: string,
  source: ValueSource,
): { value: unknown; source: ValueSource; error?: ConfigError } {
  const shown = spec.secret ? `${origin}` : `${origin}=${texts.join(',')}`;
  try {
    let value: unknown;
    if (spec.type.repeatable) {
      // Each occurrence may itself be comma-separated; the list type removes duplicates.
      value = spec.type.parse(texts.join(','));
    } else {
      if (texts.length > 1) throw new Error('given more than once');
      value = spec.type.parse(texts[0] ?? '');
    }
    const problem = spec.check?.(value);
    if (problem !== undefined) return { value, source, error: new ConfigError(`${shown}: ${problem}`, [key]) };
    return { value, source };
  } catch (err) {
    return { value: undefined, source, error: new ConfigError(`${shown}: ${(err as Error).message}`, [key]) };
  }
}

/** A rule: the option must have a value when `when` holds, e.g. the Prometheus URL for the recommender. */
export function requiredWhen<C>(key: keyof C & string, why: string, when: (config: C) => boolean = () => true): ConfigRule<C> {
  return { options: [key], check: (c) => (when(c) && (c[key] === undefined || c[key] === '') ? `required ${why}` : undefined) };
}
